// engine/schema/arns.h
//
// The Amazon Resource Names DynamoDB gives its tables and indexes, built in
// one place: arn:aws:dynamodb:<region>:<account>:table/<name> and
// <table ARN>/index/<index name>. Every description, capacity statistic and
// restore names its resources through these.

#ifndef DYNAROCK_ENGINE_SCHEMA_ARNS_H_
#define DYNAROCK_ENGINE_SCHEMA_ARNS_H_

#include <string>
#include <string_view>

#include "engine/requests/scope.h"

namespace dynarock {

// The ARN DescribeTable reports for table `name` of `scope`.
std::string TableArn(const Scope& scope, std::string_view name);

// The ARN of index `index_name` (GSI or LSI) of the table `table_arn`.
std::string IndexArn(std::string_view table_arn, std::string_view index_name);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_SCHEMA_ARNS_H_
