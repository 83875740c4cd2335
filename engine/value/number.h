// engine/value/number.h
//
// Number is DynamoDB's N type: an exact decimal with at most 38 significant
// digits and a magnitude of 1E-130 .. 9.9999999999999999999999999999999999999E+125
// (or zero), never a binary float. It is held normalized, so that equal
// numbers have equal representations ("1", "1.0" and "10E-1" are one Number):
//
//   value = (negative ? -1 : 1) * 0.d1 d2 ... dn * 10^exponent
//
// where `digits` = "d1...dn" has no leading and no trailing zero (d1 != '0',
// dn != '0'), 1 <= n <= 38; zero has empty digits, exponent 0 and is never
// negative. Immutable value type; thread-compatible.

#ifndef DYNAROCK_ENGINE_VALUE_NUMBER_H_
#define DYNAROCK_ENGINE_VALUE_NUMBER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace dynarock {

class Number {
 public:
  static constexpr int kMaxDigits = 38;
  // Exponents (in the 0.d1d2... form) of the smallest and largest magnitudes:
  // 1E-130 = 0.1E-129 and 9.99..E+125 = 0.999..E+126.
  static constexpr int kMinExponent = -129;
  static constexpr int kMaxExponent = 126;

  Number() = default;  // zero

  // Parses DynamoDB number text: optional sign, digits with an optional
  // decimal point, optional exponent (e/E, optional sign). Leading and
  // trailing zeros do not count as significant digits.
  // Errors (kValidation, DynamoDB's messages):
  //   not a number text  -> "The parameter cannot be converted to a numeric value: <text>"
  //   > 38 significant   -> "Attempting to store more than 38 significant digits in a Number"
  //   too large          -> "Number overflow. Attempting to store a number with magnitude larger than supported range"
  //   too small, nonzero -> "Number underflow. Attempting to store a number with magnitude smaller than supported range"
  static Result<Number> Parse(std::string_view text);

  // Builds from the normalized parts. REQUIRES: the invariants above hold.
  static Number FromParts(bool negative, std::string digits, int exponent);

  // Canonical text as DynamoDB returns it: no exponent, no leading or
  // trailing zeros, "-" for negatives, "0" for zero ("1.5", "-0.001",
  // "100000000000000000000").
  std::string ToString() const;

  // Appends ToString()'s text of the number with these normalized parts
  // (the invariants above; e.g. as read from a stored item, without
  // building a Number) to `*out`.
  static void AppendText(bool negative, std::string_view digits, int exponent,
                         std::string* out);

  bool is_zero() const { return digits_.empty(); }
  bool negative() const { return negative_; }
  const std::string& digits() const { return digits_; }
  int exponent() const { return exponent_; }

  // Numeric comparison: <0, 0, >0.
  int Compare(const Number& other) const;
  bool operator==(const Number& other) const {
    return negative_ == other.negative_ && exponent_ == other.exponent_ &&
           digits_ == other.digits_;
  }
  bool operator<(const Number& other) const { return Compare(other) < 0; }

  // Exact sum and difference. A result outside the supported range, or one
  // that would need more than 38 significant digits, is the overflow or
  // underflow error, as DynamoDB reports it (it does not round).
  static Result<Number> Add(const Number& a, const Number& b);
  static Result<Number> Subtract(const Number& a, const Number& b);

 private:
  bool negative_ = false;
  std::string digits_;
  int exponent_ = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_NUMBER_H_
