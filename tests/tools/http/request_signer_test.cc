// tests/tools/http/request_signer_test.cc
//
// The client's SigV4 signer against AWS's published test suite, and against
// the server's verifier (a request it signs is accepted; one changed after
// signing is not).

#include "tools/http/request_signer.h"

#include <gtest/gtest.h>

namespace dynarock::tools::http {
namespace {

using api::http::SignedRequest;

// aws-sig-v4-test-suite, get-vanilla: GET / for service "service" in
// us-east-1 at 20150830T123600Z with the suite's example key; the expected
// header is the suite's get-vanilla.authz.
TEST(RequestSignerTest, AwsGetVanilla) {
  SignedRequest req{"GET", "/",
                    {{"Host", "example.amazonaws.com"}, {"X-Amz-Date", "20150830T123600Z"}},
                    ""};
  EXPECT_EQ(SigV4Authorization(req, {"host", "x-amz-date"},
                               SigningKey{"AKIDEXAMPLE",
                                          "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                                          "us-east-1", "service"},
                               "20150830T123600Z"),
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/"
            "aws4_request, SignedHeaders=host;x-amz-date, "
            "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
}

TEST(RequestSignerTest, AmzDate) {
  EXPECT_EQ(AmzDate(1440938160), "20150830T123600Z");
  EXPECT_EQ(AmzDate(0), "19700101T000000Z");
}

// A DynamoDB request as the HTTP client signs it passes the server's
// strict verification; the same request with another body does not.
TEST(RequestSignerTest, TheServerVerifiesWhatTheClientSigns) {
  const int64_t now = 1735689600;  // 2025-01-01T00:00:00Z
  const std::string date = AmzDate(now);
  const std::string body = R"({"TableName":"T"})";
  SignedRequest req{"POST", "/",
                    {{"content-type", "application/x-amz-json-1.0"},
                     {"host", "127.0.0.1:8000"},
                     {"x-amz-date", date},
                     {"x-amz-target", "DynamoDB_20120810.DescribeTable"}},
                    body};
  const std::string auth = SigV4Authorization(
      req, {"content-type", "host", "x-amz-date", "x-amz-target"},
      SigningKey{"AKIDLOCAL", "local-secret", "eu-west-1", "dynamodb"}, date);
  req.headers.emplace_back("Authorization", auth);
  const api::http::SigV4Secrets secrets{{"AKIDLOCAL", "local-secret"}};
  Result<api::CallerIdentity> caller = api::http::VerifySigV4(req, secrets, now);
  ASSERT_TRUE(caller.ok()) << caller.status().message();
  EXPECT_EQ(caller.value().access_key_id, "AKIDLOCAL");
  EXPECT_EQ(caller.value().region, "eu-west-1");

  req.body = R"({"TableName":"U"})";
  Result<api::CallerIdentity> tampered = api::http::VerifySigV4(req, secrets, now);
  ASSERT_FALSE(tampered.ok());
  EXPECT_EQ(tampered.status().code(), ErrorCode::kInvalidSignature);
}

}  // namespace
}  // namespace dynarock::tools::http
