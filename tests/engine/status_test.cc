#include "engine/status.h"

#include <gtest/gtest.h>

namespace dynarock {
namespace {

TEST(StatusTest, ThrottledCarriesCodeMessageAndReasons) {
  Status s = Status::Throttled(
      ErrorCode::kProvisionedThroughputExceeded, "too fast",
      {{"TableWriteKeyRangeThroughputExceeded",
        "arn:aws:dynamodb:us-east-1:000000000000:table/t"}});
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(s.message(), "too fast");
  ASSERT_EQ(s.throttling_reasons().size(), 1u);
  EXPECT_EQ(s.throttling_reasons()[0].reason,
            "TableWriteKeyRangeThroughputExceeded");
  EXPECT_EQ(s.throttling_reasons()[0].resource,
            "arn:aws:dynamodb:us-east-1:000000000000:table/t");
  EXPECT_EQ(s.item(), nullptr);
}

TEST(StatusTest, OtherStatusesHaveNoThrottlingReasons) {
  EXPECT_TRUE(Status::OK().throttling_reasons().empty());
  EXPECT_TRUE(Status::Validation("x").throttling_reasons().empty());
  EXPECT_TRUE(Status::ConditionalCheckFailed(nullptr).throttling_reasons().empty());
}

}  // namespace
}  // namespace dynarock
