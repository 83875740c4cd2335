// api/table_arns.h
//
// A table ARN wherever a request names an existing table: DynamoDB accepts
// "arn:aws:dynamodb:<region>:<account>:table/<name>" in place of the name
// in every operation's TableName but CreateTable's (and the restores'
// target names), in BatchGetItem / BatchWriteItem RequestItems keys and in
// TransactGetItems / TransactWriteItems actions (developer guide,
// rbac-iam-actions: "table name overloading"). The API reads each such ARN
// into the table's name before the operation's handler runs (so every
// check and the engine see names only), and puts the ARN back where
// DynamoDB echoes the table as the request named it: the keys of a batch's
// Responses, UnprocessedKeys, UnprocessedItems and ItemCollectionMetrics,
// and ConsumedCapacity's TableName.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_TABLE_ARNS_H_
#define DYNAROCK_API_TABLE_ARNS_H_

#include <map>
#include <string>
#include <string_view>

#include "api/json_codec.h"
#include "engine/requests/scope.h"
#include "engine/status.h"

namespace dynarock::api {

// The ARNs a request named tables by: table name -> the ARN as given.
using TableArnAliases = std::map<std::string, std::string>;

// Replaces each table ARN of `request` (operation `operation`) by its
// table's name, recording it in `aliases`. Errors: those of
// TableNameOfArn (engine/schema/arns.h) for an ARN of another account or
// region, or one that is not a table's own; kValidation when a batch names
// one table twice, once by name and once by ARN. A string that does not
// begin "arn:" is left for the operation's own name checks.
Status ResolveTableArns(std::string_view operation, const Scope& scope, Json* request,
                        TableArnAliases* aliases);

// Puts the ARNs of `aliases` back into `response`, where DynamoDB echoes
// the request's table names.
void RestoreTableArns(const TableArnAliases& aliases, Json* response);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TABLE_ARNS_H_
