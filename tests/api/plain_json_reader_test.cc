// ReadPlainJson against nlohmann's own SAX parser: whenever ReadPlainJson
// reads a text whole, nlohmann must read it whole too and give the handler
// the same events with the same strings; every text of the subset nlohmann
// reads, ReadPlainJson reads. Hand-written cases, random texts of the subset
// and random byte mutations of them, a handler that refuses at each event in
// turn, and deep and huge texts.

#include "api/plain_json_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "api/json_codec.h"

namespace dynarock::api {
namespace {

// Records every event; refuses the event numbered `refuse_at` (0-based),
// if any. Has nlohmann's whole SAX interface, so both readers can drive it.
class RecordingSax {
 public:
  using number_integer_t = Json::number_integer_t;
  using number_unsigned_t = Json::number_unsigned_t;
  using number_float_t = Json::number_float_t;
  using string_t = Json::string_t;
  using binary_t = Json::binary_t;

  explicit RecordingSax(size_t refuse_at = static_cast<size_t>(-1))
      : refuse_at_(refuse_at) {}
  const std::vector<std::string>& events() const { return events_; }

  bool start_object(std::size_t n) {
    return Add("{" + std::to_string(static_cast<long long>(n)));
  }
  bool end_object() { return Add("}"); }
  bool key(string_t& k) { return Add("k:" + k); }
  bool string(string_t& s) { return Add("s:" + s); }
  bool boolean(bool b) { return Add(b ? "true" : "false"); }
  bool null() { return Add("null"); }
  bool number_integer(number_integer_t v) { return Add("i:" + std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) { return Add("u:" + std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) { return Add("f:" + s); }
  bool binary(binary_t&) { return Add("binary"); }
  bool start_array(std::size_t) { return Add("["); }
  bool end_array() { return Add("]"); }
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception&) {
    return false;
  }

 private:
  bool Add(std::string e) {
    events_.push_back(std::move(e));
    return events_.size() - 1 != refuse_at_;
  }
  size_t refuse_at_;
  std::vector<std::string> events_;
};

struct Outcome {
  bool read;
  std::vector<std::string> events;
};

Outcome Plain(const std::string& text, size_t refuse_at = -1) {
  RecordingSax sax(refuse_at);
  const bool read = ReadPlainJson(text, &sax);
  return {read, sax.events()};
}

Outcome Nlohmann(const std::string& text, size_t refuse_at = -1) {
  RecordingSax sax(refuse_at);
  const bool read = Json::sax_parse(text, &sax,
                                    nlohmann::detail::input_format_t::json,
                                    /*strict=*/true);
  return {read, sax.events()};
}

// ReadPlainJson never reads what nlohmann refuses, nor reads it otherwise.
void ExpectNoDisagreement(const std::string& text) {
  const Outcome plain = Plain(text);
  if (!plain.read) return;
  const Outcome theirs = Nlohmann(text);
  EXPECT_TRUE(theirs.read) << text;
  EXPECT_EQ(plain.events, theirs.events) << text;
}

// Both read the text whole, with the same events.
void ExpectBothRead(const std::string& text) {
  const Outcome plain = Plain(text);
  const Outcome theirs = Nlohmann(text);
  EXPECT_TRUE(plain.read) << text;
  EXPECT_TRUE(theirs.read) << text;
  EXPECT_EQ(plain.events, theirs.events) << text;
}

TEST(PlainJsonReaderTest, ReadsTheSubsetAsNlohmannDoes) {
  for (const std::string& text : {
           std::string("{}"),
           std::string(" \t\r\n{ \t\r\n} \t\r\n"),
           std::string(R"({"TableName":"Orders","Item":{"PK":{"S":"a"},"T":{"BOOL":true}}})"),
           std::string(R"({"a":{},"b":{"c":{"d":false}},"e":""})"),
           std::string(R"({"esc":"\"\\\/\b\f\n\r\t","u":"\u0000\u00e9\u20AC\uffff"})"),
           std::string(R"({"pair":"\ud83d\ude00","x\u0041":"y"})"),
           std::string("{\"raw\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\x7f\"}"),
           std::string(R"({"dup":"1","dup":"2"})"),
       }) {
    ExpectBothRead(text);
  }
}

TEST(PlainJsonReaderTest, RefusesWhatNlohmannRefuses) {
  for (const std::string& text : {
           std::string(""), std::string("   "), std::string("{"),
           std::string("}"), std::string(R"({"a":"b",})"),
           std::string(R"({"a" "b"})"), std::string(R"({"a":"b"}x)"),
           std::string(R"({"a":"b"}{})"), std::string(R"({a:"b"})"),
           std::string(R"({"a":tru})"), std::string(R"({"a":truex})"),
           std::string(R"({"a":"b)"), std::string("{\"a\":\"\x01\"}"),
           std::string(R"({"a":"\x"})"), std::string(R"({"a":"\u12"})"),
           std::string(R"({"a":"\ud800"})"), std::string(R"({"a":"\udc00"})"),
           std::string(R"({"a":"\ud800\u0041"})"),
           std::string("{\"a\":\"\xc0\xaf\"}"),      // overlong
           std::string("{\"a\":\"\xed\xa0\x80\"}"),  // a surrogate in UTF-8
           std::string("{\"a\":\"\xf4\x90\x80\x80\"}"),  // past U+10FFFF
           std::string("{\"a\":\"\xe2\x82\"}"),      // cut short
           std::string(R"({,"a":"b"})"), std::string(R"({"a":"b",,"c":"d"})"),
       }) {
    EXPECT_FALSE(Plain(text).read) << text;
    EXPECT_FALSE(Nlohmann(text).read) << text;
  }
}

TEST(PlainJsonReaderTest, StopsOutsideTheSubsetWhereNlohmannGoesOn) {
  for (const std::string& text : {
           std::string(R"({"a":1})"), std::string(R"({"a":-1.5e3})"),
           std::string(R"({"a":null})"), std::string(R"({"a":[]})"),
           std::string("\xef\xbb\xbf{}"),  // a byte-order mark
           std::string(R"("a")"), std::string("[{}]"), std::string("true"),
       }) {
    EXPECT_FALSE(Plain(text).read) << text;
    EXPECT_TRUE(Nlohmann(text).read) << text;
  }
}

TEST(PlainJsonReaderTest, StopsWhereTheHandlerRefuses) {
  const std::string text =
      R"({"TableName":"T","Item":{"PK":{"S":"a"},"B":{"BOOL":false}},"X":{}})";
  const size_t events = Nlohmann(text).events.size();
  ASSERT_EQ(Plain(text).events.size(), events);
  for (size_t k = 0; k < events; ++k) {
    const Outcome plain = Plain(text, k);
    const Outcome theirs = Nlohmann(text, k);
    EXPECT_FALSE(plain.read) << k;
    EXPECT_FALSE(theirs.read) << k;
    EXPECT_EQ(plain.events, theirs.events) << k;
    EXPECT_EQ(plain.events.size(), k + 1);
  }
}

// Random texts of the subset: nested objects of strings and booleans, the
// strings drawn from plain bytes, escapes and UTF-8 (some of it malformed).
class RandomText {
 public:
  explicit RandomText(uint32_t seed) : rng_(seed) {}

  std::string Object(int depth) {
    std::string out = Space() + "{" + Space();
    const int members = Pick(depth > 3 ? 2 : 5);
    for (int m = 0; m < members; ++m) {
      if (m > 0) out += "," + Space();
      out += String() + Space() + ":" + Space();
      switch (Pick(depth > 3 ? 3 : 4)) {
        case 0:
        case 1: out += String(); break;
        case 2: out += Pick(2) ? "true" : "false"; break;
        default: out += Object(depth + 1); break;
      }
      out += Space();
    }
    return out + "}" + Space();
  }

  // Replaces, inserts or deletes a few bytes.
  std::string Mutate(std::string text) {
    static const std::string kBytes = "{}[]\":,\\u0aAfFdDtn \x01\x7f\x80\xc3\xed\xf4";
    const int edits = 1 + Pick(3);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = Pick(static_cast<int>(text.size()));
      const char c = kBytes[Pick(static_cast<int>(kBytes.size()))];
      switch (Pick(3)) {
        case 0: text[at] = c; break;
        case 1: text.insert(text.begin() + at, c); break;
        default: text.erase(at, 1); break;
      }
    }
    return text;
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string Space() {
    static const char kSpace[] = {' ', '\t', '\n', '\r'};
    std::string s;
    while (Pick(4) == 0) s += kSpace[Pick(4)];
    return s;
  }

  std::string String() {
    static const std::vector<std::string> kPieces = {
        "a", "PK", "Orders#2024", "x y z 0123456789", "\\\"", "\\\\", "\\/",
        "\\n", "\\t", "\\u00e9", "\\u20ac", "\\ud83d\\ude00", "\xc3\xa9",
        "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\x7f", "~", "S", "BOOL",
        // Malformed, rarely: both readers must refuse them.
        "\\ud83d", "\xc3", "\x01", "\\q"};
    std::string s = "\"";
    const int pieces = Pick(6);
    for (int p = 0; p < pieces; ++p) {
      const int n = Pick(100) < 3 ? static_cast<int>(kPieces.size())
                                  : static_cast<int>(kPieces.size()) - 4;
      s += kPieces[Pick(n)];
    }
    return s + "\"";
  }

  std::mt19937 rng_;
};

TEST(PlainJsonReaderTest, RandomTextsAndMutationsNeverDisagree) {
  RandomText random(20261127);
  int both_read = 0;
  int mutated_read = 0;
  for (int n = 0; n < 3000; ++n) {
    const std::string text = random.Object(0);
    const Outcome plain = Plain(text);
    const Outcome theirs = Nlohmann(text);
    // Within the subset, nlohmann reads a text exactly when this does.
    EXPECT_EQ(plain.read, theirs.read) << text;
    if (plain.read && theirs.read) {
      EXPECT_EQ(plain.events, theirs.events) << text;
      ++both_read;
    }
    for (int m = 0; m < 5; ++m) {
      const std::string mutated = random.Mutate(text);
      ExpectNoDisagreement(mutated);
      mutated_read += Plain(mutated).read;
    }
  }
  // The generator exercises both sides: most texts are valid, and some
  // mutations still are.
  EXPECT_GT(both_read, 2000);
  EXPECT_GT(mutated_read, 100);
}

TEST(PlainJsonReaderTest, ReadsDeepNestingWithoutRecursion) {
  constexpr int kDepth = 200000;
  std::string text;
  for (int d = 0; d < kDepth; ++d) text += R"({"a":)";
  text += "{}";
  text.append(kDepth, '}');
  const Outcome plain = Plain(text);
  EXPECT_TRUE(plain.read);
  EXPECT_EQ(plain.events.size(), 3u * kDepth + 2);
  text.pop_back();  // one brace short
  EXPECT_FALSE(Plain(text).read);
}

TEST(PlainJsonReaderTest, ReadsHugeAndWideTexts) {
  const std::string big(8 << 20, 'x');
  const Outcome huge = Plain(R"({"a":")" + big + R"("})");
  ASSERT_TRUE(huge.read);
  EXPECT_EQ(huge.events[2], "s:" + big);

  std::string wide = "{";
  for (int m = 0; m < 100000; ++m) {
    if (m > 0) wide += ",";
    wide += "\"k" + std::to_string(m) + "\":\"v\"";
  }
  wide += "}";
  ExpectBothRead(wide);
}

}  // namespace
}  // namespace dynarock::api
