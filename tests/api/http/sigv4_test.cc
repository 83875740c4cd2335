// tests/api/http/sigv4_test.cc

#include "api/http/sigv4.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

namespace dynarock::api::http {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

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

// --- Strict mode -----------------------------------------------------------

constexpr std::string_view kSuiteSecret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

// AWS's SigV4 test suite (aws-sig-v4-test-suite): get-vanilla, post-vanilla
// and get-vanilla-query-order-key-case, signed at 20150830T123600Z for
// service "service" in us-east-1.
TEST(SigV4VerifyTest, AwsTestSuiteVectors) {
  struct Vector {
    std::string_view method, target, signature;
  };
  for (const Vector& v : {
           Vector{"GET", "/", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"},
           Vector{"POST", "/", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"},
           Vector{"GET", "/?Param2=value2&Param1=value1",
                  "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"}}) {
    SignedRequest req{v.method, v.target,
                      {{"Host", "example.amazonaws.com"},
                       {"X-Amz-Date", "20150830T123600Z"}},
                      ""};
    std::string canonical = CanonicalRequest(req, {"host", "x-amz-date"});
    std::string sts = StringToSign("20150830T123600Z",
                                   "20150830/us-east-1/service/aws4_request", canonical);
    EXPECT_EQ(SignatureOf(kSuiteSecret, "20150830", "us-east-1", "service", sts),
              v.signature)
        << v.method << " " << v.target;
  }
  SignedRequest vanilla{"GET", "/",
                        {{"Host", "example.amazonaws.com"},
                         {"X-Amz-Date", "20150830T123600Z"}},
                        ""};
  EXPECT_EQ(CanonicalRequest(vanilla, {"host", "x-amz-date"}),
            "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
            "host;x-amz-date\n"
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex(CanonicalRequest(vanilla, {"host", "x-amz-date"})),
            "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
}

TEST(SigV4VerifyTest, CanonicalFormsOfPathsQueriesAndHeaders) {
  SignedRequest req{"GET", "/a/./b/../c//d/?b=2&a=x y&a=1",
                    {{"Host", "h"}, {"X-Multi", " a   b "}, {"x-multi", "c"}},
                    ""};
  std::string c = CanonicalRequest(req, {"host", "x-multi"});
  EXPECT_THAT(c, HasSubstr("GET\n/a/c/d/\na=1&a=x%20y&b=2\n"));
  EXPECT_THAT(c, HasSubstr("\nx-multi:a b,c\n"));
}

// 2025-01-01T00:00:00Z
constexpr int64_t kNow = 1735689600;
constexpr std::string_view kKey = "AKIDLOCAL";
constexpr std::string_view kSecret = "local-secret";

SigV4Secrets Secrets() { return SigV4Secrets{{std::string(kKey), std::string(kSecret)}}; }

// A request signed as an SDK signs it, with `mutate` applied to the parts
// before signing.
struct Signed {
  std::string date = "20250101T000000Z";
  std::string key = std::string(kKey);
  std::string secret = std::string(kSecret);
  std::string region = "us-east-1";
  std::string service = "dynamodb";
  std::string body = "{}";
  std::string authorization;
  std::vector<std::pair<std::string, std::string>> headers;

  SignedRequest View() const {
    SignedRequest req{"POST", "/", {}, body};
    for (const auto& [k, v] : headers) req.headers.emplace_back(k, v);
    return req;
  }

  Signed& Sign() {
    headers = {{"Host", "127.0.0.1:8000"},
               {"Content-Type", "application/x-amz-json-1.0"},
               {"X-Amz-Date", date},
               {"X-Amz-Target", "DynamoDB_20120810.ListTables"}};
    std::string scope = date.substr(0, 8) + "/" + region + "/" + service + "/aws4_request";
    std::vector<std::string> signed_headers = {"content-type", "host", "x-amz-date",
                                               "x-amz-target"};
    std::string sts = StringToSign(date, scope, CanonicalRequest(View(), signed_headers));
    authorization = "AWS4-HMAC-SHA256 Credential=" + key + "/" + scope +
                    ", SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" +
                    SignatureOf(secret, date.substr(0, 8), region, service, sts);
    headers.emplace_back("Authorization", authorization);
    return *this;
  }
};

Status VerifyStatus(const Signed& s, int64_t now = kNow) {
  Result<CallerIdentity> r = VerifySigV4(s.View(), Secrets(), now);
  return r.ok() ? Status::OK() : r.status();
}

TEST(SigV4VerifyTest, AcceptsACorrectSignature) {
  Signed s;
  s.Sign();
  Result<CallerIdentity> r = VerifySigV4(s.View(), Secrets(), kNow);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->access_key_id, kKey);
  EXPECT_EQ(r->region, "us-east-1");
  // Within five minutes either way.
  EXPECT_TRUE(VerifyStatus(s, kNow + 300).ok());
  EXPECT_TRUE(VerifyStatus(s, kNow - 300).ok());
}

TEST(SigV4VerifyTest, WrongSecretOrChangedBodyIsInvalidSignature) {
  Signed s;
  s.secret = "wrong";
  s.Sign();
  Status st = VerifyStatus(s);
  EXPECT_EQ(st.code(), ErrorCode::kInvalidSignature);
  EXPECT_THAT(st.message(),
              ::testing::StartsWith(
                  "The request signature we calculated does not match the signature you "
                  "provided. Check your AWS Secret Access Key and signing method. Consult "
                  "the service documentation for details."));
  Signed tampered;
  tampered.Sign();
  tampered.body = "{\"Limit\":1}";
  EXPECT_EQ(VerifyStatus(tampered).code(), ErrorCode::kInvalidSignature);
}

TEST(SigV4VerifyTest, UnknownKeyIsUnrecognizedClient) {
  Signed s;
  s.key = "SOMEONEELSE";
  s.Sign();
  Status st = VerifyStatus(s);
  EXPECT_EQ(st.code(), ErrorCode::kUnrecognizedClient);
  EXPECT_EQ(st.message(), "The security token included in the request is invalid.");
}

TEST(SigV4VerifyTest, ClockSkew) {
  Signed s;
  s.Sign();
  Status old = VerifyStatus(s, kNow + 301);
  EXPECT_EQ(old.code(), ErrorCode::kInvalidSignature);
  EXPECT_EQ(old.message(),
            "Signature expired: 20250101T000000Z is now earlier than 20250101T000001Z "
            "(20250101T000501Z - 5 min.)");
  Status ahead = VerifyStatus(s, kNow - 301);
  EXPECT_EQ(ahead.code(), ErrorCode::kInvalidSignature);
  EXPECT_EQ(ahead.message(),
            "Signature not yet current: 20250101T000000Z is still later than "
            "20241231T235959Z (20241231T235459Z + 5 min.)");
}

TEST(SigV4VerifyTest, MissingAndIncompleteHeaders) {
  SignedRequest none{"POST", "/", {{"Host", "h"}}, "{}"};
  Result<CallerIdentity> r = VerifySigV4(none, Secrets(), kNow);
  EXPECT_EQ(r.status().code(), ErrorCode::kMissingAuthenticationToken);
  EXPECT_EQ(r.status().message(), "Request is missing Authentication Token");

  SignedRequest bare{"POST", "/", {{"Host", "h"}, {"Authorization", "AWS4-"}}, "{}"};
  r = VerifySigV4(bare, Secrets(), kNow);
  EXPECT_EQ(r.status().code(), ErrorCode::kIncompleteSignature);
  EXPECT_EQ(r.status().message(),
            "Authorization header requires 'Credential' parameter. Authorization header "
            "requires 'Signature' parameter. Authorization header requires "
            "'SignedHeaders' parameter. Authorization header requires existence of "
            "either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-");
}

TEST(SigV4VerifyTest, ShapeErrorsInDynamoDbsOrder) {
  auto with_auth = [](std::string auth, std::string date = "20250101T000000Z") {
    Signed s;
    s.headers = {{"Host", "h"}, {"X-Amz-Date", date}, {"Authorization", auth}};
    return VerifyStatus(s);
  };
  Status st = with_auth(
      "AWS4-HMAC-SHA256 Credential=a/b, SignedHeaders=host, Signature=x", "2025");
  EXPECT_EQ(st.code(), ErrorCode::kIncompleteSignature);
  EXPECT_EQ(st.message(),
            "Date must be in ISO-8601 'basic format'. Got '2025'. See "
            "http://en.wikipedia.org/wiki/ISO_8601");
  st = with_auth("AWS4-HMAC-SHA256 Credential=a/b, SignedHeaders=x-amz-date, Signature=x");
  EXPECT_EQ(st.code(), ErrorCode::kInvalidSignature);
  EXPECT_EQ(st.message(), "'Host' must be a 'SignedHeader' in the AWS Authorization.");
  st = with_auth("AWS4-HMAC-SHA25 Credential=a/b, SignedHeaders=host, Signature=x");
  EXPECT_EQ(st.code(), ErrorCode::kIncompleteSignature);
  EXPECT_EQ(st.message(),
            "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for "
            "now). ");
  st = with_auth("AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host, Signature=x");
  EXPECT_EQ(st.code(), ErrorCode::kIncompleteSignature);
  EXPECT_EQ(st.message(),
            "Credential must have exactly 5 slash-delimited elements, e.g. "
            "keyid/date/region/service/term, got 'a/b/c/d'");
  st = with_auth("AWS4-HMAC-SHA256 Credential=a/b/C/d/e, SignedHeaders=host, Signature=x");
  EXPECT_EQ(st.code(), ErrorCode::kInvalidSignature);
  EXPECT_EQ(st.message(),
            "Credential should be scoped to a valid region, not 'C'. Credential should "
            "be scoped to correct service: 'dynamodb'. Credential should be scoped with "
            "a valid terminator: 'aws4_request', not 'e'. Date in Credential scope does "
            "not match YYYYMMDD from ISO-8601 version of date from HTTP: 'b' != "
            "'20250101', from '20250101T000000Z'.");
}

TEST(SigV4VerifyTest, SessionTokensAreNotAccepted) {
  Signed s;
  s.Sign();
  s.headers.emplace_back("X-Amz-Security-Token", "token");
  EXPECT_EQ(VerifyStatus(s).code(), ErrorCode::kUnrecognizedClient);
}

TEST(SigV4VerifyTest, SurvivesGarbage) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    std::string auth = "AWS4-HMAC-SHA256 ";
    int n = static_cast<int>(rng() % 200);
    for (int j = 0; j < n; ++j) auth += static_cast<char>(rng() % 256);
    SignedRequest req{"POST", "/%zz?%&=&&a", {{"Host", "h"}, {"X-Amz-Date", "20250101T000000Z"},
                                         {"Authorization", auth}}, "x"};
    EXPECT_FALSE(VerifySigV4(req, Secrets(), kNow).ok());
  }
}

TEST(SigV4SecretsTest, ParsesBothForms) {
  Result<SigV4Secrets> s = ParseSigV4Secrets(
      "# comment\n"
      "[default]\n"
      "aws_access_key_id = AKID1\n"
      "aws_secret_access_key = secret/1+x\n"
      "region = us-east-1\n"
      "\n"
      "[other]\n"
      "aws_secret_access_key=s2\n"
      "aws_access_key_id=AKID2\n");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->size(), 2u);
  EXPECT_EQ(s->at("AKID1"), "secret/1+x");
  EXPECT_EQ(s->at("AKID2"), "s2");
  s = ParseSigV4Secrets("K1 S1\nK2:S2\n");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->at("K2"), "S2");
}

TEST(SigV4SecretsTest, RefusesWhatIsNotCredentials) {
  EXPECT_FALSE(ParseSigV4Secrets("").ok());
  EXPECT_FALSE(ParseSigV4Secrets("# nothing\n").ok());
  EXPECT_FALSE(ParseSigV4Secrets("justonetoken\n").ok());
  EXPECT_FALSE(ParseSigV4Secrets("[a]\naws_access_key_id = K\n").ok());
  EXPECT_FALSE(ParseSigV4Secrets("[a]\naws_secret_access_key = S\n").ok());
}

}  // namespace
}  // namespace dynarock::api::http
