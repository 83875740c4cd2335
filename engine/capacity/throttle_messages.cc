#include "engine/capacity/throttle_messages.h"

namespace dynarock {

namespace {

constexpr std::string_view kTableProvisioned =
    "The level of configured provisioned throughput for the table was "
    "exceeded. Consider increasing your provisioning level with the "
    "UpdateTable API.";
// As real DynamoDB sends it (no final period), unlike the API reference.
constexpr std::string_view kIndexProvisioned =
    "The level of configured provisioned throughput for one or more global "
    "secondary indexes of the table was exceeded. Consider increasing your "
    "provisioning level for the under-provisioned global secondary indexes "
    "with the UpdateTable API";
constexpr std::string_view kTableScaling =
    "Throughput exceeds the current capacity of your table or index. "
    "DynamoDB is automatically scaling your table or index so please try "
    "again shortly. If exceptions persist, check if you have a hot key: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "bp-partition-key-design.html";
constexpr std::string_view kIndexScaling =
    "Throughput exceeds the current capacity for one or more global "
    "secondary indexes. DynamoDB is automatically scaling your index so "
    "please try again shortly.";
constexpr std::string_view kAccountLimit =
    "Throughput exceeds the current throughput limit for your account. "
    "Please contact AWS Support at https://aws.amazon.com/support request a "
    "limit increase";

}  // namespace

std::string ThrottlingReasonName(bool index, bool write, ThrottleLimit limit) {
  std::string out = index ? "Index" : "Table";
  out += write ? "Write" : "Read";
  switch (limit) {
    case ThrottleLimit::kProvisionedThroughput:
      out += "ProvisionedThroughputExceeded";
      break;
    case ThrottleLimit::kAccountLimit:
      out += "AccountLimitExceeded";
      break;
    case ThrottleLimit::kKeyRange:
      out += "KeyRangeThroughputExceeded";
      break;
    case ThrottleLimit::kMaxOnDemand:
      out += "MaxOnDemandThroughputExceeded";
      break;
  }
  return out;
}

ErrorCode ThrottleErrorCode(ThrottleLimit limit) {
  return limit == ThrottleLimit::kAccountLimit
             ? ErrorCode::kRequestLimitExceeded
             : ErrorCode::kProvisionedThroughputExceeded;
}

std::string_view ThrottleMessage(bool index, ThrottleLimit limit) {
  switch (limit) {
    case ThrottleLimit::kProvisionedThroughput:
      return index ? kIndexProvisioned : kTableProvisioned;
    case ThrottleLimit::kAccountLimit:
      return kAccountLimit;
    case ThrottleLimit::kKeyRange:
    case ThrottleLimit::kMaxOnDemand:
      return index ? kIndexScaling : kTableScaling;
  }
  return kTableScaling;
}

}  // namespace dynarock
