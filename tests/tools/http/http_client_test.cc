// tests/tools/http/http_client_test.cc
//
// The HTTP client's endpoint parsing and Authorization header (its calls
// are exercised against a real server by tests/e2e/test_load.py).

#include "tools/http/http_client.h"

#include <gtest/gtest.h>

#include "api/http/sigv4.h"

namespace dynarock::tools::http {
namespace {

TEST(HttpClientTest, ParseEndpoint) {
  Result<Endpoint> e = ParseEndpoint("http://127.0.0.1:8000");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "127.0.0.1");
  EXPECT_EQ(e->port, "8000");
  e = ParseEndpoint("http://localhost/");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "localhost");
  EXPECT_EQ(e->port, "80");
  e = ParseEndpoint("http://[::1]:8001");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "::1");
  EXPECT_EQ(e->port, "8001");
  e = ParseEndpoint("https://dynamodb.eu-west-1.amazonaws.com");
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->tls);
  EXPECT_EQ(e->host, "dynamodb.eu-west-1.amazonaws.com");
  EXPECT_EQ(e->port, "443");
  EXPECT_FALSE(ParseEndpoint("http://h:1").value().tls);
  for (const char* bad : {"ftp://h", "127.0.0.1:8000", "http://", "https://",
                          "http://h:0", "http://h:99999", "http://h:80x",
                          "http://h:8000/path", "http://[::1"}) {
    EXPECT_FALSE(ParseEndpoint(bad).ok()) << bad;
  }
  EXPECT_EQ(ParseEndpoint("ftp://x").status().message(),
            "endpoint ftp://x: expected http:// or https://");
}

// The header parses as SigV4, so `dynarock serve` files the tables under
// the access key id and region.
TEST(HttpClientTest, DummyAuthorizationNamesTheCaller) {
  std::string header = DummyAuthorization("AKIDLOAD", "eu-west-1", "20251121T101500Z");
  api::http::SigV4ParseResult parsed = api::http::ParseAuthorization(header);
  ASSERT_TRUE(parsed.auth.has_value()) << header;
  EXPECT_EQ(parsed.auth->access_key_id, "AKIDLOAD");
  EXPECT_EQ(parsed.auth->region, "eu-west-1");
  EXPECT_EQ(parsed.auth->date, "20251121");
  EXPECT_EQ(parsed.auth->service, "dynamodb");
}

TEST(HttpClientTest, UnreachableEndpointIsStatusZero) {
  DynamoDbHttpClient client(Endpoint{"127.0.0.1", "1"}, HttpClientOptions{});
  api::Response r = client.Call("ListTables", "{}");
  EXPECT_EQ(r.http_status, 0);
  EXPECT_NE(r.body.find("connect to 127.0.0.1:1"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace dynarock::tools::http
