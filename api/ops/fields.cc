#include "api/ops/fields.h"

#include <limits>

namespace dynarock::api::ops {

const Json* Field(const Json& object, std::string_view name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::optional<std::string> OptionalString(const Json& object, std::string_view name) {
  const Json* v = Field(object, name);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

std::string StringOr(const Json& object, std::string_view name, std::string fallback) {
  std::optional<std::string> s = OptionalString(object, name);
  return s ? *std::move(s) : std::move(fallback);
}

std::optional<bool> OptionalBool(const Json& object, std::string_view name) {
  const Json* v = Field(object, name);
  if (v == nullptr || !v->is_boolean()) return std::nullopt;
  return v->get<bool>();
}

std::optional<int64_t> OptionalInt(const Json& object, std::string_view name) {
  const Json* v = Field(object, name);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  if (v->is_number_integer()) {
    if (v->is_number_unsigned()) {
      const uint64_t u = v->get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return std::numeric_limits<int64_t>::max();
      }
      return static_cast<int64_t>(u);
    }
    return v->get<int64_t>();
  }
  const double d = v->get<double>();
  if (!(d > -9.2e18)) return std::numeric_limits<int64_t>::min();
  if (!(d < 9.2e18)) return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(d);
}

std::optional<int64_t> OptionalMillisAsMicros(const Json& object, std::string_view name) {
  const std::optional<int64_t> millis = OptionalInt(object, name);
  if (!millis) return std::nullopt;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 1000;
  if (*millis > kMax) return std::numeric_limits<int64_t>::max();
  if (*millis < -kMax) return std::numeric_limits<int64_t>::min();
  return *millis * 1000;
}

int64_t LagMicrosOf(const Json& request) {
  const int64_t micros = OptionalMillisAsMicros(request, "LagMillis").value_or(0);
  return micros < 0 ? -1 : micros;
}

}  // namespace dynarock::api::ops
