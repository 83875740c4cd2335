// engine/schema/arns.h
//
// The Amazon Resource Names DynamoDB gives its tables and indexes, built and
// read in one place: arn:aws:dynamodb:<region>:<account>:table/<name>,
// <table ARN>/index/<index name>, <table ARN>/stream/<label>,
// <table ARN>/backup/<id>. Every description, capacity statistic and
// restore names its resources through these, and every ARN a request
// carries (TableName, RequestItems keys, ResourceArn, TableArn, PartiQL's
// FROM) is read by ParseArn.

#ifndef DYNAROCK_ENGINE_SCHEMA_ARNS_H_
#define DYNAROCK_ENGINE_SCHEMA_ARNS_H_

#include <optional>
#include <string>
#include <string_view>

#include "engine/requests/scope.h"
#include "engine/status.h"

namespace dynarock {

// The ARN DescribeTable reports for table `name` of `scope`.
std::string TableArn(const Scope& scope, std::string_view name);

// The KMSMasterKeyArn of a table encrypted with `key_id` (SSESpecification's
// KMSMasterKeyId: a key ARN, kept; an alias "alias/x" or a key id, made an
// ARN of the scope's Region and account), or, without one, of the AWS
// managed key alias/aws/dynamodb (one fixed key id per account and Region:
// dynarock has no KMS to create it).
std::string KmsKeyArn(const Scope& scope, const std::optional<std::string>& key_id);

// The ARN of index `index_name` (GSI or LSI) of the table `table_arn`.
std::string IndexArn(std::string_view table_arn, std::string_view index_name);

// The parts of "arn:<partition>:dynamodb:<region>:<account>:table/<table>
// [/<sub_type>/<sub_name>]". `table` is 3..255 characters of
// [a-zA-Z0-9_.-]; `sub_type` is empty for a table's own ARN, else "index",
// "stream", "backup", ... with a non-empty `sub_name` (which may hold
// further slashes).
struct DynamoDbArn {
  std::string partition;
  std::string region;
  std::string account;
  std::string table;
  std::string sub_type;
  std::string sub_name;
};

// `arn` read as a DynamoDB table (or sub-resource) ARN; nullopt when it is
// not one (another service, another resource type, a malformed name).
std::optional<DynamoDbArn> ParseArn(std::string_view arn);

// Whether `s` is meant as an ARN rather than a name ("arn:..."): a table
// name cannot hold ':'.
bool LooksLikeArn(std::string_view s);

// The name of the table that the table ARN `arn` names in `scope`, for a
// request of `operation` ("GetItem"): kValidation when `arn` is not a
// table's own ARN (malformed, or an index's or stream's), kAccessDenied for
// another account (DynamoDB's cross-account answer when no resource-based
// policy allows the action: none can, locally), kValidation for another
// region. docs/compatibility.md "Table ARNs" cites the evidence.
Result<std::string> TableNameOfArn(const Scope& scope, std::string_view arn,
                                   std::string_view operation);

// kAccessDenied, in IAM's cross-account words for `operation`, when `arn`
// parses as a DynamoDB ARN (ParseArn) of another account than the scope's;
// OK otherwise, malformed ARNs included (the operation's own checks answer
// those). AWS authorizes a request before the service reads it, so this
// comes before the operation's other checks of the ARN.
Status CheckArnAccount(const Scope& scope, std::string_view arn,
                       std::string_view operation);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_SCHEMA_ARNS_H_
