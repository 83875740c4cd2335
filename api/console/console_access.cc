// api/console/console_access.cc

#include "api/console/console_access.h"

#include <algorithm>
#include <array>

namespace dynarock::api::console {

bool ReadsOnly(std::string_view operation) {
  // What the console's views call, and the other describes and lists; sorted.
  static constexpr std::array<std::string_view, 20> kReads = {
      "BatchGetItem",
      "DescribeContinuousBackups",
      "DescribeEndpoints",
      "DescribeLimits",
      "DescribeTable",
      "DescribeTimeToLive",
      "DynamoDBStreams_20120810.DescribeStream",
      "DynamoDBStreams_20120810.ListStreams",
      "DynamoRock_20251121.DescribeCapacity",
      "DynamoRock_20251121.DescribeClock",
      "DynamoRock_20251121.DescribeIndexPropagation",
      "DynamoRock_20251121.DescribeStreamStats",
      "DynamoRock_20251121.ListFaultRules",
      "GetItem",
      "ListBackups",
      "ListTables",
      "ListTagsOfResource",
      "Query",
      "Scan",
      "TransactGetItems",
  };
  return std::binary_search(kReads.begin(), kReads.end(), operation);
}

}  // namespace dynarock::api::console
