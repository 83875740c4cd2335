// tests/tools/simulate/endpoint_session_test.cc
//
// The session's pure parts: Regions from AWS host names, table prefixes,
// and an AWS endpoint refused without credentials. Calls, retries and the
// cleanup are exercised against a served instance by
// tests/e2e/test_simulate_endpoint.py.

#include "tools/simulate/endpoint_session.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

namespace dynarock::tools::simulate {
namespace {

TEST(EndpointSessionTest, RegionOfAwsHost) {
  EXPECT_EQ(RegionOfAwsHost("dynamodb.us-west-2.amazonaws.com"), "us-west-2");
  EXPECT_EQ(RegionOfAwsHost("dynamodb.eu-central-1.amazonaws.com"), "eu-central-1");
  EXPECT_EQ(RegionOfAwsHost("dynamodb-fips.us-east-1.amazonaws.com"), "");
  EXPECT_EQ(RegionOfAwsHost("127.0.0.1"), "");
  EXPECT_EQ(RegionOfAwsHost("dynamodb..amazonaws.com"), "");
}

TEST(EndpointSessionTest, TablePrefixIsAValidUniqueTableNameStart) {
  const std::string a = NewTablePrefix();
  EXPECT_TRUE(std::regex_match(a, std::regex("dynarock-sim-[0-9]{8}T[0-9]{6}-[0-9a-f]{4}-")))
      << a;
}

TEST(EndpointSessionTest, AwsEndpointWantsCredentials) {
  ::setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent", 1);
  ::setenv("AWS_CONFIG_FILE", "/nonexistent", 1);
  ::unsetenv("AWS_ACCESS_KEY_ID");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  ::unsetenv("AWS_REGION");
  ::unsetenv("AWS_DEFAULT_REGION");
  EndpointOptions o;
  o.url = "https://dynamodb.eu-west-1.amazonaws.com";
  Result<ResolvedEndpoint> r = ResolveEndpoint(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is Amazon DynamoDB, which wants credentials"),
            std::string::npos);

  ::setenv("AWS_ACCESS_KEY_ID", "AKIDT", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "s", 1);
  r = ResolveEndpoint(o);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->is_aws);
  EXPECT_TRUE(r->endpoint.tls);
  EXPECT_EQ(r->region, "eu-west-1");  // from the host
  EXPECT_EQ(r->credentials_source, "environment");

  // A local endpoint without credentials signs with a dummy.
  ::unsetenv("AWS_ACCESS_KEY_ID");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  o.url = "http://127.0.0.1:8000";
  r = ResolveEndpoint(o);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->is_aws);
  EXPECT_EQ(r->region, "us-east-1");
  EXPECT_EQ(r->credentials_source, "none (dummy signature)");
  ::unsetenv("AWS_SHARED_CREDENTIALS_FILE");
  ::unsetenv("AWS_CONFIG_FILE");
}

}  // namespace
}  // namespace dynarock::tools::simulate
