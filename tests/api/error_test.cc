#include "api/error.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "engine/types.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

json Body(const Response& r) { return json::parse(r.body); }

TEST(ErrorTest, TypePrefixesAndStatusCodes) {
  struct Case {
    ErrorCode code;
    const char* type;
    int http;
  };
  const Case cases[] = {
      {ErrorCode::kValidation, "com.amazon.coral.validate#ValidationException", 400},
      {ErrorCode::kSerialization, "com.amazon.coral.service#SerializationException", 400},
      {ErrorCode::kUnknownOperation, "com.amazon.coral.service#UnknownOperationException", 400},
      {ErrorCode::kMissingAuthenticationToken,
       "com.amazon.coral.service#MissingAuthenticationTokenException", 400},
      {ErrorCode::kIncompleteSignature,
       "com.amazon.coral.service#IncompleteSignatureException", 400},
      {ErrorCode::kInvalidSignature,
       "com.amazon.coral.service#InvalidSignatureException", 400},
      {ErrorCode::kUnrecognizedClient,
       "com.amazon.coral.service#UnrecognizedClientException", 400},
      {ErrorCode::kThrottling, "com.amazon.coral.availability#ThrottlingException", 400},
      {ErrorCode::kConditionalCheckFailed,
       "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException", 400},
      {ErrorCode::kProvisionedThroughputExceeded,
       "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException", 400},
      {ErrorCode::kResourceNotFound,
       "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException", 400},
      {ErrorCode::kResourceInUse, "com.amazonaws.dynamodb.v20120810#ResourceInUseException", 400},
      {ErrorCode::kTransactionCanceled,
       "com.amazonaws.dynamodb.v20120810#TransactionCanceledException", 400},
      {ErrorCode::kTransactionConflict,
       "com.amazonaws.dynamodb.v20120810#TransactionConflictException", 400},
      {ErrorCode::kIdempotentParameterMismatch,
       "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException", 400},
      {ErrorCode::kTransactionInProgress,
       "com.amazonaws.dynamodb.v20120810#TransactionInProgressException", 400},
      {ErrorCode::kItemCollectionSizeLimitExceeded,
       "com.amazonaws.dynamodb.v20120810#ItemCollectionSizeLimitExceededException", 400},
      {ErrorCode::kLimitExceeded, "com.amazonaws.dynamodb.v20120810#LimitExceededException", 400},
      {ErrorCode::kRequestLimitExceeded, "com.amazonaws.dynamodb.v20120810#RequestLimitExceeded",
       400},
      {ErrorCode::kInternal, "com.amazonaws.dynamodb.v20120810#InternalServerError", 500},
      {ErrorCode::kIOError, "com.amazonaws.dynamodb.v20120810#InternalServerError", 500},
      {ErrorCode::kCorruption, "com.amazonaws.dynamodb.v20120810#InternalServerError", 500},
  };
  for (const Case& c : cases) {
    Response r = FormatError(Status(c.code, "boom"));
    EXPECT_EQ(r.http_status, c.http) << c.type;
    EXPECT_EQ(ErrorType(c.code), c.type);
    const char* message_key = c.code == ErrorCode::kSerialization ||
                                       c.code == ErrorCode::kTransactionCanceled
                                   ? "Message"
                                   : "message";
    EXPECT_EQ(Body(r), (json{{"__type", c.type}, {message_key, "boom"}}));
  }
}

TEST(ErrorTest, ExactBodyOfAValidationError) {
  Response r = FormatError(Status::Validation("bad \"x\""));
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":"bad \"x\""})");
  EXPECT_FALSE(r.ok());
}

TEST(ErrorTest, EmptyMessageIsLeftOut) {
  EXPECT_EQ(FormatError(Status(ErrorCode::kUnknownOperation, "")).body,
            R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  EXPECT_EQ(FormatError(Status::Serialization("")).body,
            R"({"__type":"com.amazon.coral.service#SerializationException"})");
}

TEST(ErrorTest, ConditionalCheckFailedCarriesTheItem) {
  auto item = std::make_shared<Item>();
  item->emplace("pk", AttributeValue::S("k"));
  item->emplace("n", AttributeValue::N(Number::Parse("1.50").value()));
  Response r = FormatError(Status::ConditionalCheckFailed(item));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(Body(r),
            json::parse(R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                            "message":"The conditional request failed",
                            "Item":{"pk":{"S":"k"},"n":{"N":"1.5"}}})"));
  Response without = FormatError(Status::ConditionalCheckFailed(nullptr));
  EXPECT_FALSE(Body(without).contains("Item"));
}

TEST(ErrorTest, ThrottleErrorsCarryThrottlingReasons) {
  Response r = FormatError(Status::Throttled(
      ErrorCode::kProvisionedThroughputExceeded, "slow down",
      {{"TableWriteProvisionedThroughputExceeded", "arn:t"},
       {"IndexWriteProvisionedThroughputExceeded", "arn:t/index/g"}}));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(Body(r),
            json::parse(R"({"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
                            "message":"slow down",
                            "ThrottlingReasons":[
                              {"reason":"TableWriteProvisionedThroughputExceeded","resource":"arn:t"},
                              {"reason":"IndexWriteProvisionedThroughputExceeded","resource":"arn:t/index/g"}]})"));
  EXPECT_FALSE(Body(FormatError(Status::Validation("x"))).contains("ThrottlingReasons"));
}

}  // namespace
}  // namespace dynarock::api
