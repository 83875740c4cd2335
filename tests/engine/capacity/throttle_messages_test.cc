#include "engine/capacity/throttle_messages.h"

#include <gtest/gtest.h>

namespace dynarock {
namespace {

TEST(ThrottleMessagesTest, ReasonNamesAreResourceOperationLimit) {
  EXPECT_EQ(ThrottlingReasonName(false, false, ThrottleLimit::kProvisionedThroughput),
            "TableReadProvisionedThroughputExceeded");
  EXPECT_EQ(ThrottlingReasonName(true, true, ThrottleLimit::kAccountLimit),
            "IndexWriteAccountLimitExceeded");
  EXPECT_EQ(ThrottlingReasonName(false, true, ThrottleLimit::kKeyRange),
            "TableWriteKeyRangeThroughputExceeded");
  EXPECT_EQ(ThrottlingReasonName(true, false, ThrottleLimit::kMaxOnDemand),
            "IndexReadMaxOnDemandThroughputExceeded");
}

TEST(ThrottleMessagesTest, AccountLimitsAreRequestLimitExceeded) {
  EXPECT_EQ(ThrottleErrorCode(ThrottleLimit::kAccountLimit),
            ErrorCode::kRequestLimitExceeded);
  for (ThrottleLimit l : {ThrottleLimit::kProvisionedThroughput,
                          ThrottleLimit::kKeyRange, ThrottleLimit::kMaxOnDemand}) {
    EXPECT_EQ(ThrottleErrorCode(l), ErrorCode::kProvisionedThroughputExceeded);
  }
}

TEST(ThrottleMessagesTest, DynamoDbMessages) {
  EXPECT_EQ(ThrottleMessage(false, ThrottleLimit::kProvisionedThroughput),
            "The level of configured provisioned throughput for the table was "
            "exceeded. Consider increasing your provisioning level with the "
            "UpdateTable API.");
  EXPECT_EQ(ThrottleMessage(true, ThrottleLimit::kKeyRange),
            "Throughput exceeds the current capacity for one or more global "
            "secondary indexes. DynamoDB is automatically scaling your index "
            "so please try again shortly.");
  EXPECT_EQ(ThrottleMessage(false, ThrottleLimit::kAccountLimit),
            ThrottleMessage(true, ThrottleLimit::kAccountLimit));
}

}  // namespace
}  // namespace dynarock
