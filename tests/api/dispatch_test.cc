#include "api/dispatch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock::api {
namespace {

TEST(DispatchTest, EveryImplementedOperationHasAHandler) {
  for (const char* op : {"CreateTable", "DescribeTable", "ListTables", "UpdateTable",
                         "DeleteTable", "PutItem", "GetItem", "DeleteItem"}) {
    EXPECT_NE(FindHandler(op), nullptr) << op;
  }
}

TEST(DispatchTest, UnknownNamesHaveNone) {
  for (const char* op : {"", "ListTable", "listTables", "PutItem ", "Frobnicate"}) {
    EXPECT_EQ(FindHandler(op), nullptr) << op;
  }
}

TEST(DispatchTest, UnknownOperationHasNoMessage) {
  Result<Json> r = Dispatch(RequestContext{}, "NoSuchOperation", Json::object());
  EXPECT_THAT(r, StatusIs(ErrorCode::kUnknownOperation, ::testing::Eq("")));
}

TEST(DispatchTest, UnservedOperationsOfTheModelAnswerAsDynamoDbLocal) {
  for (const char* op : {"DescribeKinesisStreamingDestination", "DescribeTableReplicaAutoScaling",
                         "EnableKinesisStreamingDestination", "UpdateTableReplicaAutoScaling"}) {
    EXPECT_EQ(FindHandler(op), nullptr) << op;
    EXPECT_THAT(Dispatch(RequestContext{}, op, Json::object()),
                StatusIs(ErrorCode::kUnknownOperation,
                         ::testing::Eq("An unknown operation was requested.")))
        << op;
  }
}

TEST(DispatchTest, RoutesToTheNamedHandler) {
  TestEngine engine;
  RequestContext ctx{engine.engine.get(), Scope{}};
  Result<Json> r = Dispatch(ctx, "ListTables", Json::object());
  ASSERT_OK(r);
  EXPECT_EQ(*r, Json::parse(R"({"TableNames":[]})"));
  // The DescribeTable handler, not ListTables', answers this one.
  Result<Json> d = Dispatch(ctx, "DescribeTable", Json{{"TableName", "nope"}});
  EXPECT_THAT(d, StatusIs(ErrorCode::kResourceNotFound, ::testing::HasSubstr("nope")));
}

}  // namespace
}  // namespace dynarock::api
