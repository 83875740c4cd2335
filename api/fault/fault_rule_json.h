// api/fault/fault_rule_json.h
//
// Fault rules (engine/fault/fault_rule.h) as JSON: the form
// DynamoRock_20251121.PutFaultRule takes, ListFaultRules answers and
// `dynarock serve --fault-rules FILE` reads. docs/testing.md documents it:
//
//   {"Id": "slow-orders",
//    "Match": {"Operations": ["PutItem"], "TableName": "Orders",
//              "IndexName": "GSI1", "Key": {"pk": {"S": "A"}},
//              "KeyPrefix": {"AttributeName": "pk", "Prefix": "USER#"},
//              "Request": {"ConsistentRead": true}},
//    "Effect": {"Error": "ProvisionedThroughputExceededException",
//               "Message": "...", "ThrottlingReason": "...",
//               "CancellationReason": "TransactionConflict",
//               "CancellationReasons": ["None", "ConditionalCheckFailed"]}
//            | {"Unprocessed": true} | {"LatencyMillis": 250},
//    "When": {"Probability": 0.5, "Seed": 7, "EveryNth": 3, "FirstN": 2,
//             "From": 1700000000, "To": 1700000060}}
//
// Decoding is strict (an unknown member is an error, so a typo never leaves
// a rule silently broader than meant); every error is a ValidationException
// "Invalid fault rule: ...". Pure functions; thread-safe.

#ifndef DYNAROCK_API_FAULT_FAULT_RULE_JSON_H_
#define DYNAROCK_API_FAULT_FAULT_RULE_JSON_H_

#include <string_view>
#include <vector>

#include "api/json_codec.h"
#include "engine/fault/fault_rule.h"
#include "engine/status.h"

namespace dynarock::api {

// One rule. Operation names must be operations the API serves.
Result<FaultRule> DecodeFaultRule(const Json& rule);

// A rule as stored, with MatchedCount and FiredCount.
Json EncodeFaultRule(const FaultRuleStatus& rule);

// The rules of a --fault-rules file: {"Rules": [rule, ...]} or [rule, ...].
Result<std::vector<FaultRule>> ParseFaultRules(std::string_view text);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_FAULT_FAULT_RULE_JSON_H_
