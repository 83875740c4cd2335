// engine/requests/expression_parameters.h
//
// Requests carry expressions as TEXT; the engine parses, resolves and
// evaluates them (engine/expr/). An unset optional means the request did not
// carry the parameter; DynamoDB treats an empty map or string differently from
// an absent one ("ExpressionAttributeValues must not be empty").

#ifndef DYNAROCK_ENGINE_REQUESTS_EXPRESSION_PARAMETERS_H_
#define DYNAROCK_ENGINE_REQUESTS_EXPRESSION_PARAMETERS_H_

#include <map>
#include <string>

#include "engine/types.h"

namespace dynarock {

// ExpressionAttributeNames: "#n" -> attribute name.
using ExpressionAttributeNames = std::map<std::string, std::string>;
// ExpressionAttributeValues: ":v" -> value.
using ExpressionAttributeValues = std::map<std::string, AttributeValue>;

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_EXPRESSION_PARAMETERS_H_
