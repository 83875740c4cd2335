// tests/api/api_test_util.h
//
// ApiTest: a Client on an in-memory TestEngine, and helpers to send DynamoDB
// JSON through it and compare whole responses.

#ifndef DYNAROCK_TESTS_API_API_TEST_UTIL_H_
#define DYNAROCK_TESTS_API_API_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "api/client.h"
#include "tests/testutil/test_engine.h"

namespace dynarock::api {

struct Reply {
  int http_status = 0;
  nlohmann::json body;
};

inline std::ostream& operator<<(std::ostream& os, const Reply& r) {
  return os << r.http_status << " " << r.body.dump();
}

class ApiTest : public ::testing::Test {
 protected:
  ApiTest() = default;
  explicit ApiTest(EngineOptions options) : test_engine_(std::move(options)) {}

  // Sends `body` (JSON text) as `operation`; the reply body must be JSON or
  // empty.
  Reply Call(std::string_view operation, std::string_view body,
             const CallerIdentity& caller = {}) {
    Response r = client_.Call(operation, body, caller);
    Reply out;
    out.http_status = r.http_status;
    // An empty body (TagResource, UntagResource) is null.
    if (!r.body.empty()) {
      out.body = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
      EXPECT_FALSE(out.body.is_discarded()) << "not JSON: " << r.body;
    }
    return out;
  }
  Reply Call(std::string_view operation, const char* body,
             const CallerIdentity& caller = {}) {
    return Call(operation, std::string_view(body), caller);
  }
  Reply Call(std::string_view operation, const std::string& body,
             const CallerIdentity& caller = {}) {
    return Call(operation, std::string_view(body), caller);
  }
  Reply Call(std::string_view operation, const nlohmann::json& body,
             const CallerIdentity& caller = {}) {
    return Call(operation, body.dump(), caller);
  }

  // Creates an on-demand table with a string hash key `pk` and, when
  // `range` is set, a number range key `sk`.
  void CreateTable(const std::string& name, bool range = false) {
    nlohmann::json req = {
        {"TableName", name},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"AttributeDefinitions", {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
        {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
    if (range) {
      req["AttributeDefinitions"].push_back(
          {{"AttributeName", "sk"}, {"AttributeType", "N"}});
      req["KeySchema"].push_back({{"AttributeName", "sk"}, {"KeyType", "RANGE"}});
    }
    Reply r = Call("CreateTable", req);
    ASSERT_EQ(r.http_status, 200) << r;
  }

  TestEngine test_engine_;
  Client client_{test_engine_.engine.get()};
};

// The error body DynamoDB sends: {"__type": type, "message": message}.
inline nlohmann::json ErrorBody(std::string_view type, std::string_view message) {
  return {{"__type", type}, {"message", message}};
}
inline nlohmann::json ValidationError(std::string_view message) {
  return ErrorBody("com.amazon.coral.validate#ValidationException", message);
}
inline nlohmann::json SerializationError(std::string_view message) {
  return {{"__type", "com.amazon.coral.service#SerializationException"},
          {"Message", message}};
}

}  // namespace dynarock::api

#endif  // DYNAROCK_TESTS_API_API_TEST_UTIL_H_
