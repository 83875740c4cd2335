// The bytes of JSON text: the plain-run scan against a byte-at-a-time scan,
// and UTF-8 sequences against what nlohmann accepts in a string.

#include "api/json_bytes.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "api/json_codec.h"

namespace dynarock::api {
namespace {

TEST(JsonBytesTest, PlainBytesArePrintableAsciiButQuoteAndBackslash) {
  for (int c = 0; c < 256; ++c) {
    const bool plain = c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
    EXPECT_EQ(kPlainJsonByte[c], plain) << c;
    // Every lane of the 8-byte test.
    for (int lane = 0; lane < 8; ++lane) {
      uint64_t w = 0x6161616161616161ULL;  // "aaaaaaaa"
      w &= ~(uint64_t{0xff} << (8 * lane));
      w |= uint64_t(c) << (8 * lane);
      EXPECT_EQ(AnyNotPlainJsonByte(w), !plain) << c << " lane " << lane;
    }
  }
}

TEST(JsonBytesTest, PlainRunEndMatchesAByteAtATimeScan) {
  std::mt19937 rng(18);
  const std::string palette = std::string("abcXYZ09 ~\x7f\"\\\x01\x1f\x80\xff", 16);
  for (int n = 0; n < 20000; ++n) {
    std::string s(std::uniform_int_distribution<int>(0, 40)(rng), 'a');
    for (char& c : s) {
      // Mostly plain, so that runs reach past 8 bytes.
      if (std::uniform_int_distribution<int>(0, 9)(rng) == 0) {
        c = palette[std::uniform_int_distribution<size_t>(0, palette.size() - 1)(rng)];
      }
    }
    const size_t from = std::uniform_int_distribution<size_t>(0, s.size())(rng);
    size_t want = from;
    while (want < s.size() && kPlainJsonByte[static_cast<uint8_t>(s[want])]) ++want;
    EXPECT_EQ(PlainJsonRunEnd(s, from), want);
  }
}

// nlohmann reads "<bytes>" as one string.
bool NlohmannAcceptsString(const std::string& bytes) {
  return Json::accept("\"" + bytes + "\"");
}

TEST(JsonBytesTest, Utf8SequencesAreWhatNlohmannAccepts) {
  std::mt19937 rng(3629);
  const uint8_t kEdges[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f,
                            0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0,
                            0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff};
  auto some_byte = [&] {
    return std::uniform_int_distribution<int>(0, 3)(rng) == 0
               ? kEdges[std::uniform_int_distribution<size_t>(0, sizeof(kEdges) - 1)(rng)]
               : static_cast<uint8_t>(std::uniform_int_distribution<int>(0x80, 0xbf)(rng));
  };
  for (int lead = 0x80; lead < 0x100; ++lead) {
    for (int n = 0; n < 400; ++n) {
      std::string s(1, static_cast<char>(lead));
      for (int k = 0; k < 3; ++k) s.push_back(static_cast<char>(some_byte()));
      const size_t len = Utf8SequenceLength(s, 0);
      if (len > 0) {
        EXPECT_TRUE(NlohmannAcceptsString(s.substr(0, len))) << lead;
      } else {
        // No prefix of a malformed start is a string nlohmann reads.
        for (size_t m = 1; m <= s.size(); ++m) {
          EXPECT_FALSE(NlohmannAcceptsString(s.substr(0, m))) << lead << " " << m;
        }
      }
    }
  }
  EXPECT_EQ(Utf8SequenceLength("a", 0), 1u);
  EXPECT_EQ(Utf8SequenceLength("\xc3\xa9", 0), 2u);
  EXPECT_EQ(Utf8SequenceLength("\xe2\x82\xac", 0), 3u);
  EXPECT_EQ(Utf8SequenceLength("\xf0\x9f\x98\x80", 0), 4u);
  EXPECT_EQ(Utf8SequenceLength("\xe2\x82", 0), 0u);  // cut short
}

// AppendUtf8 writes what nlohmann decodes a \u escape (or a surrogate pair
// of them) to, for code points at every length boundary and at random.
TEST(JsonBytesTest, AppendUtf8EncodesAsNlohmannDecodesEscapes) {
  auto escape = [](uint32_t u) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\u%04x", u);
    return std::string(buf);
  };
  std::vector<uint32_t> points = {0x0, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff,
                                  0xe000, 0xffff, 0x10000, 0x10ffff};
  std::mt19937 rng(8);
  for (int n = 0; n < 2000; ++n) {
    const uint32_t cp = std::uniform_int_distribution<uint32_t>(0, 0x10ffff)(rng);
    if (cp < 0xd800 || cp > 0xdfff) points.push_back(cp);
  }
  for (uint32_t cp : points) {
    const std::string text =
        cp < 0x10000 ? escape(cp)
                     : escape(0xd800 + ((cp - 0x10000) >> 10)) +
                           escape(0xdc00 + ((cp - 0x10000) & 0x3ff));
    std::string mine;
    AppendUtf8(cp, &mine);
    EXPECT_EQ(mine, Json::parse("\"" + text + "\"").get<std::string>()) << cp;
    EXPECT_EQ(Utf8SequenceLength(mine, 0), mine.size()) << cp;
  }
}

TEST(JsonBytesTest, HexDigitReadsBothCasesAndNothingElse) {
  const std::string digits = "0123456789abcdef";
  for (int c = 0; c < 256; ++c) {
    const size_t lower = digits.find(static_cast<char>(std::tolower(c)));
    const int want = lower != std::string::npos ? static_cast<int>(lower) : -1;
    EXPECT_EQ(HexDigit(static_cast<char>(c)), want) << c;
  }
}

}  // namespace
}  // namespace dynarock::api
