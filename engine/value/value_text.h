// engine/value/value_text.h
//
// The compact text of an AttributeValue that DynamoDB prints in its
// messages and that tests, logs and hot-key reports show: {S:x}, {N:1.5},
// {B:<base64>}, {BOOL:true}, {NULL:true}, {L:[...]}, {M:{k:...}},
// {SS:[a, b]}, {NS:[1, 2]}, {BS:[...]}. It lives with the values, not with
// the expressions, so that capacity (which renders partition keys) and expr
// (which renders resolved trees and messages) share it without including
// each other. Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_VALUE_VALUE_TEXT_H_
#define DYNAROCK_ENGINE_VALUE_VALUE_TEXT_H_

#include <string>

#include "engine/types.h"

namespace dynarock {

// Any value, containers element by element.
std::string RenderValue(const AttributeValue& value);

// An item as {name:value, ...} in name order, values as RenderValue.
std::string RenderItem(const Item& item);

// A scalar as DynamoDB prints it in messages ("{N:5}", "{S:dog}",
// "{B:<base64>}"); a container prints as "{L:...}".
std::string ValueForMessage(const AttributeValue& value);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_VALUE_TEXT_H_
