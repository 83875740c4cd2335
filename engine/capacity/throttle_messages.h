// engine/capacity/throttle_messages.h
//
// Every throttle error dynarock returns, in one place: DynamoDB's
// ThrottlingReason names (ResourceType + OperationType + LimitType), the
// error code of each limit and DynamoDB's exact messages (API reference:
// ProvisionedThroughputExceededException, RequestLimitExceeded,
// TransactionCanceledException's ThrottlingError messages).

#ifndef DYNAROCK_ENGINE_CAPACITY_THROTTLE_MESSAGES_H_
#define DYNAROCK_ENGINE_CAPACITY_THROTTLE_MESSAGES_H_

#include <string>
#include <string_view>

#include "engine/status.h"

namespace dynarock {

// Why a limit was hit: DynamoDB's LimitType.
enum class ThrottleLimit {
  // A provisioned table's or GSI's RCU/WCU (and burst) ran out.
  kProvisionedThroughput,
  // An on-demand table or GSI reached the per-table account quota.
  kAccountLimit,
  // One partition reached its ceiling (both modes), or an on-demand table
  // outgrew what it can serve at once (2 x its previous peak).
  kKeyRange,
  // An on-demand table or GSI reached its own OnDemandThroughput maximum.
  kMaxOnDemand,
};

// "TableWriteKeyRangeThroughputExceeded", "IndexReadAccountLimitExceeded", ...
std::string ThrottlingReasonName(bool index, bool write, ThrottleLimit limit);

// The error code a throttle of `limit` returns: RequestLimitExceeded for
// account limits, ProvisionedThroughputExceeded otherwise.
ErrorCode ThrottleErrorCode(ThrottleLimit limit);

// DynamoDB's message for a throttle of `limit` on the table (index = false)
// or on a GSI (index = true).
std::string_view ThrottleMessage(bool index, ThrottleLimit limit);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_THROTTLE_MESSAGES_H_
