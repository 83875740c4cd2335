// tests/api/http/content_coding_test.cc

#include "api/http/content_coding.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

namespace dynarock::api::http {
namespace {

// zlib's own encoder, independent of EncodeBody: gzip or zlib format.
std::string Compress(std::string_view data, bool gzip, int level = 6) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, level, Z_DEFLATED, gzip ? 31 : 15, 8,
                         Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - zs.avail_out);
  deflateEnd(&zs);
  return out;
}

std::string Gzip(std::string_view data) { return Compress(data, true); }
std::string Zlib(std::string_view data) { return Compress(data, false); }

constexpr size_t kLimit = 16 * 1024 * 1024;

TEST(ContentCodingTest, ParsesContentEncoding) {
  EXPECT_EQ(ParseContentEncoding(std::nullopt), ContentCoding::kIdentity);
  EXPECT_EQ(ParseContentEncoding(""), ContentCoding::kIdentity);
  EXPECT_EQ(ParseContentEncoding("identity"), ContentCoding::kIdentity);
  EXPECT_EQ(ParseContentEncoding("gzip"), ContentCoding::kGzip);
  EXPECT_EQ(ParseContentEncoding(" GZip "), ContentCoding::kGzip);
  EXPECT_EQ(ParseContentEncoding("deflate"), ContentCoding::kDeflate);
  for (std::string_view bad : {"garbage", "br", "x-gzip", "gzip, deflate",
                               "gzip;q=1", "zstd"}) {
    EXPECT_EQ(ParseContentEncoding(bad), std::nullopt) << bad;
  }
}

TEST(ContentCodingTest, DecodesGzipAndDeflate) {
  const std::string json = R"({"TableName": "t", "Item": {"p": {"S": "x"}}})";
  DecodedBody gz = DecodeBody(ContentCoding::kGzip, Gzip(json), kLimit);
  EXPECT_EQ(gz.error, DecodeError::kNone);
  EXPECT_EQ(gz.body, json);
  DecodedBody df = DecodeBody(ContentCoding::kDeflate, Zlib(json), kLimit);
  EXPECT_EQ(df.error, DecodeError::kNone);
  EXPECT_EQ(df.body, json);
}

TEST(ContentCodingTest, IdentityIsTheBodyWithinTheLimit) {
  EXPECT_EQ(DecodeBody(ContentCoding::kIdentity, "{}", 2).body, "{}");
  EXPECT_EQ(DecodeBody(ContentCoding::kIdentity, "{ }", 2).error,
            DecodeError::kTooLarge);
}

TEST(ContentCodingTest, DecodesLargeBodiesInPieces) {
  // Larger than the first output buffer, both very and hardly compressible.
  std::string repetitive(1 << 20, 'x');
  std::string varied;
  uint32_t state = 12345;
  for (int i = 0; i < 300000; ++i) {
    state = state * 1103515245 + 12345;
    varied += static_cast<char>('a' + (state >> 16) % 26);
  }
  for (const std::string& data : {repetitive, varied}) {
    EXPECT_EQ(DecodeBody(ContentCoding::kGzip, Gzip(data), kLimit).body, data);
    EXPECT_EQ(DecodeBody(ContentCoding::kDeflate, Zlib(data), kLimit).body,
              data);
  }
}

TEST(ContentCodingTest, ConcatenatedGzipMembersAreOneBody) {
  DecodedBody two =
      DecodeBody(ContentCoding::kGzip, Gzip("{\"TableNam") + Gzip("e\": 1}"),
                 kLimit);
  EXPECT_EQ(two.error, DecodeError::kNone);
  EXPECT_EQ(two.body, "{\"TableName\": 1}");
  // An empty member is a member.
  EXPECT_EQ(DecodeBody(ContentCoding::kGzip, Gzip("") + Gzip("{}"), kLimit).body,
            "{}");
}

TEST(ContentCodingTest, JunkAfterTheDataIsIgnoredAsDynamoDBDoes) {
  // DynamoDB (Java's GZIPInputStream) serves a gzip body followed by bytes
  // that do not begin another member (alternator's
  // test_gzip_request_with_extra_junk, marked a DynamoDB bug).
  EXPECT_EQ(DecodeBody(ContentCoding::kGzip, Gzip("{}") + "junk", kLimit).body,
            "{}");
  // A deflate body is one zlib stream; a second one is not read.
  EXPECT_EQ(DecodeBody(ContentCoding::kDeflate, Zlib("{}") + Zlib("[]"), kLimit)
                .body,
            "{}");
}

TEST(ContentCodingTest, CorruptDataIsRefused) {
  const std::string json = R"({"TableName": "t"})";
  const std::string gz = Gzip(json);
  std::vector<std::pair<ContentCoding, std::string>> cases = {
      {ContentCoding::kGzip, ""},
      {ContentCoding::kDeflate, ""},
      {ContentCoding::kGzip, json},                      // not compressed
      {ContentCoding::kDeflate, json},                   // not compressed
      {ContentCoding::kGzip, gz.substr(0, gz.size() - 1)},  // truncated
      {ContentCoding::kGzip, gz.substr(0, 10)},             // header only
      {ContentCoding::kGzip, Zlib(json)},                // the other format
      {ContentCoding::kDeflate, gz},                     // the other format
      // A second member whose data is broken.
      {ContentCoding::kGzip, gz + gz.substr(0, 12) + "\xff\xff\xff\xff"},
  };
  std::string bad_crc = gz;
  bad_crc[bad_crc.size() - 6] ^= 1;
  cases.emplace_back(ContentCoding::kGzip, bad_crc);
  for (const auto& [coding, data] : cases) {
    DecodedBody decoded = DecodeBody(coding, data, kLimit);
    EXPECT_EQ(decoded.error, DecodeError::kCorrupt)
        << ContentCodingName(coding) << " of " << data.size() << " bytes";
    EXPECT_EQ(decoded.body, "");
  }
}

TEST(ContentCodingTest, DecodedBodyOverTheLimitIsTooLarge) {
  // 20 MB of spaces compress to about 20 KB: refused without being kept.
  const std::string bomb = Gzip(std::string(20 * 1024 * 1024, ' '));
  ASSERT_LT(bomb.size(), 64 * 1024u);
  size_t largest = 0;
  DecodedBody decoded = DecodeBody(ContentCoding::kGzip, bomb, kLimit,
                                   [&](size_t n) {
                                     largest = std::max(largest, n);
                                     return true;
                                   });
  EXPECT_EQ(decoded.error, DecodeError::kTooLarge);
  EXPECT_LE(largest, kLimit + 1);
  // Exactly at the limit is accepted.
  const std::string exact(1000, 'y');
  EXPECT_EQ(DecodeBody(ContentCoding::kDeflate, Zlib(exact), 1000).body, exact);
  EXPECT_EQ(DecodeBody(ContentCoding::kDeflate, Zlib(exact), 999).error,
            DecodeError::kTooLarge);
  // Many members, each small, add up too.
  std::string members;
  for (int i = 0; i < 20; ++i) members += Gzip(std::string(100, 'z'));
  EXPECT_EQ(DecodeBody(ContentCoding::kGzip, members, 1999).error,
            DecodeError::kTooLarge);
  EXPECT_EQ(DecodeBody(ContentCoding::kGzip, members, 2000).body.size(), 2000u);
}

TEST(ContentCodingTest, RefusedGrowthStopsDecoding) {
  const std::string data(100000, 'q');
  std::vector<size_t> asked;
  DecodedBody decoded =
      DecodeBody(ContentCoding::kGzip, Gzip(data), kLimit, [&](size_t n) {
        asked.push_back(n);
        return n < 50000;
      });
  EXPECT_EQ(decoded.error, DecodeError::kRefused);
  ASSERT_FALSE(asked.empty());
  EXPECT_GE(asked.back(), 50000u);
  for (size_t i = 1; i < asked.size(); ++i) EXPECT_GT(asked[i], asked[i - 1]);
}

TEST(ContentCodingTest, EncodeBodyRoundTrips) {
  const std::string body(10000, 'x');
  std::optional<std::string> gz = EncodeBody(ContentCoding::kGzip, body);
  ASSERT_TRUE(gz.has_value());
  EXPECT_LT(gz->size(), 200u);
  EXPECT_EQ(static_cast<unsigned char>((*gz)[0]), 0x1f);  // gzip magic
  EXPECT_EQ(DecodeBody(ContentCoding::kGzip, *gz, kLimit).body, body);
  std::optional<std::string> df = EncodeBody(ContentCoding::kDeflate, body);
  ASSERT_TRUE(df.has_value());
  EXPECT_EQ(static_cast<unsigned char>((*df)[0]), 0x78);  // zlib header
  EXPECT_EQ(DecodeBody(ContentCoding::kDeflate, *df, kLimit).body, body);
  EXPECT_EQ(EncodeBody(ContentCoding::kIdentity, body), std::nullopt);
}

// Every Accept-Encoding case of alternator's test_accept_encoding_header,
// with the answers DynamoDB gave.
TEST(ContentCodingTest, ChoosesTheResponseCodingAsDynamoDB) {
  const ContentCoding kNone = ContentCoding::kIdentity;
  const ContentCoding kGzip = ContentCoding::kGzip;
  const ContentCoding kDeflate = ContentCoding::kDeflate;
  const std::vector<std::pair<std::string_view, ContentCoding>> cases = {
      {"gzip", kGzip},
      {"deflate", kDeflate},
      {"identity", kNone},
      {"", kNone},
      {"br", kNone},
      {"zstd", kNone},
      {"compress", kNone},
      {"x-gzip", kNone},
      {"gzip, deflate", kGzip},
      {"br, identity, deflate, gzip", kDeflate},
      {"GZIP, identity", kGzip},
      {"dog, gzip ,, cat", kGzip},
      {"gzip;q=0.8, deflate;q=0.5", kGzip},
      {"br, gzip;q=0, deflate; q = 0.5 , identity;q=0", kDeflate},
      {"*", kGzip},
      {"*, deflate;q=0.5", kGzip},
      {"*, deflate", kDeflate},
      {"*, identity", kGzip},
      {"*, gzip;q=0.5", kDeflate},
      {"gzip ;q=0", kNone},
      {"identity;q=0", kNone},
      {"*;q=0", kNone},
      {"*;q=0.5,identity", kGzip},
      {"gzip;q=0.5,identity;q=0.8", kGzip},
      {"br;q=0.8,identity;q=0.5,*;q=0", kNone},
      {"\"gzip\"", kNone},
      {"gzip br", kNone},
      {"gzip:q=1", kNone},
      {"deflate;q=0.5, gzip;q=31", kGzip},
      {"gzip;q=31,deflate;q=51", kGzip},
      {"deflate;q=0.5, gzip;q=0.2", kDeflate},
      {"deflate;q=0.5, gzip;q=1;q=0.2", kGzip},
      {"deflate;q=0.5,gzip;q=0.", kDeflate},
      {"deflate;q=0.5,gzip;q=0.x", kGzip},
      {"deflate;q=0.5,gzip;q=0. x", kGzip},
      {"deflate;q=-0.5,gzip;q=0.2", kGzip},
      {"gzip;q= 0;q=1", kNone},
      {"gzip;q =0;q=1", kGzip},
      {"gzip; q=0;q=1", kNone},
      {"gzip;nq=0;q=1", kNone},
      {"gzip;q=0, gzip;q=1, gzip;q=0", kGzip},
      {"br,identity;q=0.5,gzip;q=0.0001", kGzip},
      // Several Accept-Encoding headers, joined with commas by the server.
      {"identity,gzip", kGzip},
  };
  for (const auto& [header, expected] : cases) {
    EXPECT_EQ(ChooseResponseCoding(header, kMinCompressedResponseBytes),
              expected)
        << "Accept-Encoding: " << header;
  }
}

TEST(ContentCodingTest, SmallResponsesAreNotCompressed) {
  EXPECT_EQ(ChooseResponseCoding("gzip", kMinCompressedResponseBytes - 1),
            ContentCoding::kIdentity);
  EXPECT_EQ(ChooseResponseCoding("*", 10), ContentCoding::kIdentity);
  EXPECT_EQ(ChooseResponseCoding("deflate", 1 << 20), ContentCoding::kDeflate);
}

}  // namespace
}  // namespace dynarock::api::http
