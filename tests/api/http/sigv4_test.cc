// tests/api/http/sigv4_test.cc

#include "api/http/sigv4.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

namespace dynarock::api::http {
namespace {

using ::testing::ElementsAre;

constexpr std::string_view kBotoHeader =
    "AWS4-HMAC-SHA256 "
    "Credential=AKIDEXAMPLE/20250101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
    "Signature="
    "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7";

TEST(SigV4Test, ParsesWhatSdksSend) {
  SigV4ParseResult r = ParseAuthorization(kBotoHeader);
  ASSERT_TRUE(r.auth.has_value());
  EXPECT_EQ(r.auth->algorithm, "AWS4-HMAC-SHA256");
  EXPECT_EQ(r.auth->access_key_id, "AKIDEXAMPLE");
  EXPECT_EQ(r.auth->date, "20250101");
  EXPECT_EQ(r.auth->region, "us-east-1");
  EXPECT_EQ(r.auth->service, "dynamodb");
  EXPECT_EQ(r.auth->terminator, "aws4_request");
  EXPECT_THAT(
      r.auth->signed_headers,
      ElementsAre("content-type", "host", "x-amz-date", "x-amz-target"));
  EXPECT_EQ(r.auth->signature.substr(0, 8), "5d672d79");

  CallerIdentity caller = CallerFromAuthorization(*r.auth);
  EXPECT_EQ(caller.access_key_id, "AKIDEXAMPLE");
  EXPECT_EQ(caller.region, "us-east-1");
}

TEST(SigV4Test, AcceptsAnyOrderAndSeparators) {
  SigV4ParseResult r = ParseAuthorization(
      "  AWS4-HMAC-SHA256   Signature=abc,SignedHeaders=host "
      "Credential=key/20250101/eu-west-1/dynamodb/aws4_request/");
  ASSERT_TRUE(r.auth.has_value());
  EXPECT_EQ(r.auth->access_key_id, "key");
  EXPECT_EQ(r.auth->region, "eu-west-1");
  EXPECT_EQ(r.auth->signature, "abc");
  EXPECT_THAT(r.auth->signed_headers, ElementsAre("host"));
}

TEST(SigV4Test, CredentialIsTheOnlyRequiredEntry) {
  SigV4ParseResult r =
      ParseAuthorization("AWS4-HMAC-SHA256 Credential=k/d/r/s/t");
  ASSERT_TRUE(r.auth.has_value());
  EXPECT_EQ(r.auth->access_key_id, "k");
  EXPECT_TRUE(r.auth->signature.empty());
}

TEST(SigV4Test, OtherSchemesAreNotSigV4) {
  for (std::string_view header :
       {"", "   ", "Basic dXNlcjpwYXNz", "Bearer abc", "AWS AKID:sig",
        "aws4-hmac-sha256 Credential=k/d/r/s/t", "\x01\x02\xff"}) {
    SigV4ParseResult r = ParseAuthorization(header);
    EXPECT_FALSE(r.auth.has_value()) << header;
    EXPECT_EQ(r.error, SigV4Error::kNotSigV4) << header;
  }
}

TEST(SigV4Test, IncompleteSigV4IsReportedAsSuch) {
  for (std::string_view header : {
           "AWS4-HMAC-SHA256",
           "AWS4-HMAC-SHA256 ",
           "AWS4-HMAC-SHA256 SignedHeaders=host, Signature=abc",
           "AWS4-HMAC-SHA256 Credential",
           "AWS4-HMAC-SHA256 Credential=",
           "AWS4-HMAC-SHA256 Credential=a/b/c/d",
           "AWS4-HMAC-SHA256 Credential=a/b/c/d/e/f",
           "AWS4-HMAC-SHA256 Credential=/b/c/d/e",
           "AWS4-HMAC-SHA256 Credential=a/b//d/e",
           "AWS4-HMAC-SHA256 Credential=////",
       }) {
    SigV4ParseResult r = ParseAuthorization(header);
    EXPECT_FALSE(r.auth.has_value()) << header;
    EXPECT_EQ(r.error, SigV4Error::kIncomplete) << header;
  }
}

TEST(SigV4Test, RejectsOverlongFields) {
  std::string key(kMaxAccessKeyIdLength + 1, 'K');
  EXPECT_FALSE(ParseAuthorization("AWS4-HMAC-SHA256 Credential=" + key +
                                  "/d/us-east-1/dynamodb/aws4_request")
                   .auth.has_value());
  key.pop_back();
  EXPECT_TRUE(ParseAuthorization("AWS4-HMAC-SHA256 Credential=" + key +
                                 "/d/us-east-1/dynamodb/aws4_request")
                  .auth.has_value());
  std::string region(kMaxRegionLength + 1, 'r');
  EXPECT_FALSE(ParseAuthorization("AWS4-HMAC-SHA256 Credential=k/d/" + region +
                                  "/dynamodb/aws4_request")
                   .auth.has_value());
}

// Random bytes, and random mutations of a good header, never crash the
// parser (run under ASan/UBSan in scripts/test.sh).
TEST(SigV4Test, SurvivesGarbage) {
  std::mt19937 rng(12345);
  std::string alphabet = "AWS4-HMAC-SHA256 Credential=/,;= \t\r\nxyz";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    int len = static_cast<int>(rng() % 200);
    for (int j = 0; j < len; ++j) {
      s += (i % 2 == 0) ? static_cast<char>(rng() & 0xFF)
                        : alphabet[rng() % alphabet.size()];
    }
    if (i % 3 == 0) s = "AWS4-HMAC-SHA256 " + s;
    SigV4ParseResult r = ParseAuthorization(s);
    if (r.auth) {
      EXPECT_FALSE(r.auth->access_key_id.empty());
      EXPECT_FALSE(r.auth->region.empty());
    }
  }
  std::string good(kBotoHeader);
  for (int i = 0; i < 20000; ++i) {
    std::string s = good;
    int edits = 1 + static_cast<int>(rng() % 5);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[pos] = static_cast<char>(rng() & 0xFF);
          break;
        case 1:
          s.erase(pos, 1 + rng() % 10);
          break;
        case 2:
          s.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
      }
      if (s.empty()) s = "x";
    }
    (void)ParseAuthorization(s);
  }
}

}  // namespace
}  // namespace dynarock::api::http
