#include "engine/value/number.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dynarock {

namespace {

// --- DynamoDB's messages, one place each ----------------------------------
//
// Sources (texts captured from real DynamoDB): dynalite's validations.js and
// its test suite, scylladb test/alternator/test_number.py (which matches
// "numeric", "significant", "overflow", "underflow"), and user reports of
// production errors ("The parameter cannot be converted to a numeric value:
// NaN"). "A value provided cannot be converted into a number" is what
// DynamoDB Local says, not the service.

constexpr std::string_view kNotANumberMessage =
    "The parameter cannot be converted to a numeric value";
constexpr std::string_view kTooManyDigitsMessage =
    "Attempting to store more than 38 significant digits in a Number";
constexpr std::string_view kOverflowMessage =
    "Number overflow. Attempting to store a number with magnitude larger than "
    "supported range";
constexpr std::string_view kUnderflowMessage =
    "Number underflow. Attempting to store a number with magnitude smaller "
    "than supported range";

// DynamoDB appends the offending text, except when it is empty.
Status NotANumber(std::string_view text) {
  std::string message(kNotANumberMessage);
  if (!text.empty()) {
    message += ": ";
    message += text;
  }
  return Status::Validation(std::move(message));
}
Status TooManyDigits() {
  return Status::Validation(std::string(kTooManyDigitsMessage));
}
Status Overflow() { return Status::Validation(std::string(kOverflowMessage)); }
Status Underflow() {
  return Status::Validation(std::string(kUnderflowMessage));
}
// An exact sum or difference that needs more than 38 significant digits
// (1E50 + 1). DynamoDB rejects it with its *overflow* message, not the
// 38-digit one (observed on the service; scylladb test_number.py,
// test_update_expression_plus_imprecise, notes the same oddity).
Status InexactArithmetic() { return Overflow(); }

// Exponents whose magnitude passes this cannot be parsed by the decimal
// parser DynamoDB uses (a 32-bit scale), so such text is "not a number"
// rather than out of range.
constexpr int64_t kMaxExponentTextMagnitude = 2147483647;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Checks the supported range for a normalized nonzero value.
Status CheckRange(int64_t exponent, size_t digit_count, bool arithmetic) {
  if (exponent > Number::kMaxExponent) return Overflow();
  if (exponent < Number::kMinExponent) return Underflow();
  if (digit_count > static_cast<size_t>(Number::kMaxDigits)) {
    return arithmetic ? InexactArithmetic() : TooManyDigits();
  }
  return Status::OK();
}

}  // namespace

Result<Number> Number::Parse(std::string_view text) {
  const size_t n = text.size();
  size_t i = 0;
  bool negative = false;
  if (i < n && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  const size_t int_begin = i;
  while (i < n && IsDigit(text[i])) ++i;
  const size_t int_end = i;
  size_t frac_begin = i;
  size_t frac_end = i;
  if (i < n && text[i] == '.') {
    ++i;
    frac_begin = i;
    while (i < n && IsDigit(text[i])) ++i;
    frac_end = i;
  }
  // "." alone, "+", "e5": no mantissa digit at all.
  if (int_begin == int_end && frac_begin == frac_end) return NotANumber(text);

  int64_t exp = 0;
  if (i < n && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < n && (text[i] == '+' || text[i] == '-')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    const size_t exp_begin = i;
    bool too_big = false;
    while (i < n && IsDigit(text[i])) {
      if (!too_big) {
        exp = exp * 10 + (text[i] - '0');
        too_big = exp > kMaxExponentTextMagnitude;
      }
      ++i;
    }
    if (i == exp_begin || too_big) return NotANumber(text);
    if (exp_negative) exp = -exp;
  }
  // Anything left over (spaces, a second point, "NaN", "1e5x") is invalid.
  if (i != n) return NotANumber(text);

  // Find the significant digits across the integer and fraction parts
  // without building the concatenation: position k < int_len is in the
  // integer part, the rest in the fraction part.
  const size_t int_len = int_end - int_begin;
  const size_t total = int_len + (frac_end - frac_begin);
  auto digit_at = [&](size_t k) {
    return k < int_len ? text[int_begin + k] : text[frac_begin + k - int_len];
  };
  size_t first = 0;
  while (first < total && digit_at(first) == '0') ++first;
  if (first == total) return Number();  // zero, of any sign and exponent
  size_t last = total - 1;
  while (digit_at(last) == '0') --last;

  // value = 0.(digits) * 10^exponent; the first significant digit sits
  // int_len - first places left of the point.
  const int64_t exponent =
      static_cast<int64_t>(int_len) - static_cast<int64_t>(first) + exp;
  const size_t digit_count = last - first + 1;
  DR_RETURN_IF_ERROR(CheckRange(exponent, digit_count, /*arithmetic=*/false));

  Number result;
  result.negative_ = negative;
  result.exponent_ = static_cast<int>(exponent);
  result.digits_.reserve(digit_count);
  for (size_t k = first; k <= last; ++k) result.digits_.push_back(digit_at(k));
  return result;
}

Number Number::FromParts(bool negative, std::string digits, int exponent) {
  assert(digits.size() <= static_cast<size_t>(kMaxDigits));
  assert(digits.empty() || (digits.front() != '0' && digits.back() != '0'));
  assert(std::all_of(digits.begin(), digits.end(), IsDigit));
  assert(!digits.empty() || (!negative && exponent == 0));
  assert(digits.empty() ||
         (exponent >= kMinExponent && exponent <= kMaxExponent));
  Number result;
  result.negative_ = negative;
  result.digits_ = std::move(digits);
  result.exponent_ = exponent;
  return result;
}

std::string Number::ToString() const {
  if (is_zero()) return "0";
  std::string out;
  // Longest case: "-0." + 129 zeros + 38 digits.
  out.reserve(digits_.size() + static_cast<size_t>(std::abs(exponent_)) + 3);
  AppendText(negative_, digits_, exponent_, &out);
  return out;
}

void Number::AppendText(bool negative, std::string_view digits, int exponent,
                        std::string* out) {
  if (digits.empty()) {
    out->push_back('0');
    return;
  }
  const int n = static_cast<int>(digits.size());
  if (negative) out->push_back('-');
  if (exponent <= 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-exponent), '0');
    out->append(digits);
  } else if (exponent >= n) {
    out->append(digits);
    out->append(static_cast<size_t>(exponent - n), '0');
  } else {
    out->append(digits.substr(0, static_cast<size_t>(exponent)));
    out->push_back('.');
    out->append(digits.substr(static_cast<size_t>(exponent)));
  }
}

int Number::Compare(const Number& other) const {
  auto sign = [](const Number& x) {
    return x.is_zero() ? 0 : x.negative_ ? -1 : 1;
  };
  const int sa = sign(*this);
  const int sb = sign(other);
  if (sa != sb) return sa < sb ? -1 : 1;
  if (sa == 0) return 0;
  int magnitude;
  if (exponent_ != other.exponent_) {
    magnitude = exponent_ < other.exponent_ ? -1 : 1;
  } else {
    // Same exponent: digits have no trailing zeros, so comparing them as
    // strings compares the values ("12" < "123" as 0.12 < 0.123).
    const int c = digits_.compare(other.digits_);
    magnitude = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return sa > 0 ? magnitude : -magnitude;
}

Result<Number> Number::Add(const Number& a, const Number& b) {
  if (a.is_zero()) return b;
  if (b.is_zero()) return a;

  // Digit i (0-based) of x stands for 10^(x.exponent - 1 - i). Lay both
  // operands out over positions [lo, hi), least significant first, with one
  // spare position on top for a carry. The span is at most ~300 digits
  // because both operands are in range.
  const int a_lo = a.exponent_ - static_cast<int>(a.digits_.size());
  const int b_lo = b.exponent_ - static_cast<int>(b.digits_.size());
  const int lo = std::min(a_lo, b_lo);
  const int hi = std::max(a.exponent_, b.exponent_) + 1;
  const size_t width = static_cast<size_t>(hi - lo);
  std::vector<int> x(width, 0);
  std::vector<int> y(width, 0);
  auto lay_out = [lo](const Number& v, std::vector<int>* out) {
    for (size_t i = 0; i < v.digits_.size(); ++i) {
      const int position = v.exponent_ - 1 - static_cast<int>(i);
      (*out)[static_cast<size_t>(position - lo)] = v.digits_[i] - '0';
    }
  };
  lay_out(a, &x);
  lay_out(b, &y);

  bool negative;
  std::vector<int> sum(width, 0);
  if (a.negative_ == b.negative_) {
    negative = a.negative_;
    int carry = 0;
    for (size_t k = 0; k < width; ++k) {
      const int d = x[k] + y[k] + carry;
      sum[k] = d % 10;
      carry = d / 10;
    }
    assert(carry == 0);  // the spare top position absorbs it
  } else {
    // Subtract the smaller magnitude from the larger; the result takes the
    // sign of the larger.
    Number abs_a = a;
    Number abs_b = b;
    abs_a.negative_ = false;
    abs_b.negative_ = false;
    const int c = abs_a.Compare(abs_b);
    if (c == 0) return Number();
    const std::vector<int>& big = c > 0 ? x : y;
    const std::vector<int>& small = c > 0 ? y : x;
    negative = c > 0 ? a.negative_ : b.negative_;
    int borrow = 0;
    for (size_t k = 0; k < width; ++k) {
      int d = big[k] - small[k] - borrow;
      borrow = d < 0 ? 1 : 0;
      sum[k] = d + 10 * borrow;
    }
    assert(borrow == 0);
  }

  size_t top = width;
  while (top > 0 && sum[top - 1] == 0) --top;
  size_t bottom = 0;
  while (sum[bottom] == 0) ++bottom;  // nonzero: top > bottom
  const int64_t exponent = static_cast<int64_t>(top) + lo;
  const size_t digit_count = top - bottom;
  DR_RETURN_IF_ERROR(CheckRange(exponent, digit_count, /*arithmetic=*/true));

  Number result;
  result.negative_ = negative;
  result.exponent_ = static_cast<int>(exponent);
  result.digits_.reserve(digit_count);
  for (size_t k = top; k > bottom; --k) {
    result.digits_.push_back(static_cast<char>('0' + sum[k - 1]));
  }
  return result;
}

Result<Number> Number::Subtract(const Number& a, const Number& b) {
  if (b.is_zero()) return Add(a, b);
  Number negated = b;
  negated.negative_ = !b.negative_;
  return Add(a, negated);
}

}  // namespace dynarock
