// api/ops/fields.h
//
// Reading members out of a request body whose types ValidateRequest has
// already checked. A JSON null counts as absent, as in DynamoDB.

#ifndef DYNAROCK_API_OPS_FIELDS_H_
#define DYNAROCK_API_OPS_FIELDS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "api/json_codec.h"

namespace dynarock::api::ops {

// The member, or null when absent or JSON null.
const Json* Field(const Json& object, std::string_view name);

// REQUIRES for the typed readers: the member, if present, has the type.
std::optional<std::string> OptionalString(const Json& object, std::string_view name);
std::string StringOr(const Json& object, std::string_view name, std::string fallback = {});
std::optional<bool> OptionalBool(const Json& object, std::string_view name);
// Integers; a decimal is truncated, out-of-range values are clamped.
std::optional<int64_t> OptionalInt(const Json& object, std::string_view name);
// A member given in milliseconds, in microseconds (saturating at the int64
// range); nullopt when absent.
std::optional<int64_t> OptionalMillisAsMicros(const Json& object, std::string_view name);
// The extensions' "LagMillis", in microseconds; -1 (any negative value)
// restores the default lag.
int64_t LagMicrosOf(const Json& request);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_FIELDS_H_
