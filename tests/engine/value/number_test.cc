#include "engine/value/number.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::Eq;
using ::testing::StrEq;

// DynamoDB's texts, spelled out here rather than shared with number.cc so
// that a change to either side fails a test.
constexpr char kNotANumber[] =
    "The parameter cannot be converted to a numeric value";
constexpr char kTooManyDigits[] =
    "Attempting to store more than 38 significant digits in a Number";
constexpr char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than "
    "supported range";
constexpr char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller "
    "than supported range";

Number N(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text << ": " << n.status().ToString();
  return n.ok() ? *n : Number();
}

std::string Repeat(char c, size_t n) { return std::string(n, c); }

// --- Parse and canonical text -----------------------------------------------

struct ParseOk {
  std::string text;
  std::string canonical;
};

void PrintTo(const ParseOk& c, std::ostream* os) {
  *os << '"' << c.text << '"';
}

class ParseOkTest : public ::testing::TestWithParam<ParseOk> {};

TEST_P(ParseOkTest, ParsesToCanonicalText) {
  const ParseOk& c = GetParam();
  ASSERT_OK_AND_ASSIGN(Number n, Number::Parse(c.text));
  EXPECT_EQ(n.ToString(), c.canonical) << "input: " << c.text;
  // The canonical text parses back to the same value.
  ASSERT_OK_AND_ASSIGN(Number again, Number::Parse(n.ToString()));
  EXPECT_TRUE(again == n) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseOkTest,
    ::testing::Values(
        ParseOk{"1", "1"}, ParseOk{"-0", "0"}, ParseOk{"0", "0"},
        ParseOk{"0.0", "0"}, ParseOk{"-0.000", "0"}, ParseOk{"000", "0"},
        ParseOk{"1e3", "1000"}, ParseOk{"1E+3", "1000"}, ParseOk{"1e-0", "1"},
        ParseOk{"10E-1", "1"}, ParseOk{".5", "0.5"}, ParseOk{"5.", "5"},
        ParseOk{"+1", "1"}, ParseOk{"+3", "3"}, ParseOk{"-7.1234", "-7.1234"},
        ParseOk{"-17e5", "-1700000"},
        ParseOk{"-17.4E37", "-174" + Repeat('0', 36)}, ParseOk{".123", "0.123"},
        ParseOk{"0001.23", "1.23"}, ParseOk{"1e+5", "100000"},
        ParseOk{"0e1000", "0"}, ParseOk{"0E-1000", "0"},
        ParseOk{"1.500", "1.5"}, ParseOk{"100", "100"},
        ParseOk{"0.001", "0.001"}, ParseOk{"-0.001", "-0.001"},
        ParseOk{"-0.00120", "-0.0012"}, ParseOk{"123.456", "123.456"},
        ParseOk{"12.5e-1", "1.25"}, ParseOk{"1e20", "1" + Repeat('0', 20)},
        ParseOk{"1E-130", "0." + Repeat('0', 129) + "1"},
        ParseOk{"-1E-130", "-0." + Repeat('0', 129) + "1"},
        ParseOk{"1E125", "1" + Repeat('0', 125)},
        ParseOk{"9.9999999999999999999999999999999999999E+125",
                Repeat('9', 38) + Repeat('0', 88)},
        ParseOk{"-9.9999999999999999999999999999999999999E+125",
                "-" + Repeat('9', 38) + Repeat('0', 88)},
        // 38 significant digits, and leading/trailing zeros do not count.
        ParseOk{"12345678901234567890123456789012345678",
                "12345678901234567890123456789012345678"},
        ParseOk{Repeat('0', 50) + "1", "1"},
        ParseOk{"1." + Repeat('0', 60), "1"},
        ParseOk{"1234567890123456789012345678901234567800000",
                "1234567890123456789012345678901234567800000"},
        ParseOk{
            "0." + Repeat('0', 40) + "12345678901234567890123456789012345678",
            "0." + Repeat('0', 40) + "12345678901234567890123456789012345678"},
        // alternator's accepted spellings, checked against DynamoDB.
        ParseOk{"3.14", "3.14"},
        ParseOk{"31415926535897932384626433832795028841e30",
                "31415926535897932384626433832795028841" + Repeat('0', 30)}));

struct ParseError {
  std::string text;
  std::string message;
};

void PrintTo(const ParseError& c, std::ostream* os) {
  *os << '"' << c.text << '"';
}

class ParseErrorTest : public ::testing::TestWithParam<ParseError> {};

TEST_P(ParseErrorTest, FailsWithDynamoDbMessage) {
  const ParseError& c = GetParam();
  EXPECT_THAT(Number::Parse(c.text),
              StatusIs(ErrorCode::kValidation, StrEq(c.message)))
      << "input: \"" << c.text << "\"";
}

ParseError NotANumber(std::string text) {
  // DynamoDB appends the text it could not convert.
  std::string message = std::string(kNotANumber) + ": " + text;
  return ParseError{std::move(text), std::move(message)};
}

INSTANTIATE_TEST_SUITE_P(
    NotANumber, ParseErrorTest,
    ::testing::Values(
        ParseError{"", kNotANumber}, NotANumber("  1"), NotANumber(" 1"),
        NotANumber("1 "), NotANumber("1e"), NotANumber("1E+"),
        NotANumber("1e-"), NotANumber("e5"), NotANumber("."), NotANumber("-"),
        NotANumber("+"), NotANumber("-."), NotANumber("abc"), NotANumber("NaN"),
        NotANumber("-NaN"), NotANumber("Infinity"), NotANumber("-Infinity"),
        NotANumber("dog"), NotANumber("1.2.3"), NotANumber("--1"),
        NotANumber("+-1"), NotANumber("0x10"), NotANumber("1,000"),
        NotANumber("1_000"), NotANumber("1e5.5"), NotANumber("1e5x"),
        NotANumber("1..2"),
        NotANumber("\xef\xbc\x91"),  // fullwidth digit one
        NotANumber("1e2147483648"), NotANumber("1e99999999999999999999")));

INSTANTIATE_TEST_SUITE_P(
    TooManyDigits, ParseErrorTest,
    ::testing::Values(
        ParseError{"123456789012345678901234567890123456789", kTooManyDigits},
        ParseError{"-1.23456789012345678901234567890123456789", kTooManyDigits},
        ParseError{"1." + Repeat('0', 37) + "1", kTooManyDigits},
        ParseError{"3.14159265358979323846264338327950288419", kTooManyDigits},
        ParseError{"314159265358979323846264338327950288419e30",
                   kTooManyDigits},
        ParseError{"0.000123456789012345678901234567890123456789",
                   kTooManyDigits}));

INSTANTIATE_TEST_SUITE_P(
    OutOfRange, ParseErrorTest,
    ::testing::Values(
        ParseError{"1E126", kOverflow}, ParseError{"1e126", kOverflow},
        ParseError{"-1e126", kOverflow}, ParseError{"11e125", kOverflow},
        ParseError{"10E125", kOverflow}, ParseError{"1e1000", kOverflow},
        ParseError{"1e2147483647", kOverflow},
        ParseError{"1" + Repeat('0', 126), kOverflow},
        ParseError{"1E-131", kUnderflow}, ParseError{"-1e-131", kUnderflow},
        ParseError{"0.9e-130", kUnderflow}, ParseError{"1e-1000", kUnderflow},
        ParseError{"0." + Repeat('0', 130) + "1", kUnderflow},
        // Range is checked before the digit count.
        ParseError{"1234567890123456789012345678901234567890e200", kOverflow},
        ParseError{"1234567890123456789012345678901234567890e-200",
                   kUnderflow}));

TEST(NumberTest, ParseNormalizesParts) {
  ASSERT_OK_AND_ASSIGN(Number n, Number::Parse("123.45"));
  EXPECT_FALSE(n.negative());
  EXPECT_EQ(n.digits(), "12345");
  EXPECT_EQ(n.exponent(), 3);

  ASSERT_OK_AND_ASSIGN(Number m, Number::Parse("-0.00120"));
  EXPECT_TRUE(m.negative());
  EXPECT_EQ(m.digits(), "12");
  EXPECT_EQ(m.exponent(), -2);

  ASSERT_OK_AND_ASSIGN(Number z, Number::Parse("-0e5"));
  EXPECT_TRUE(z.is_zero());
  EXPECT_FALSE(z.negative());
  EXPECT_EQ(z.exponent(), 0);
  EXPECT_TRUE(z == Number());
}

TEST(NumberTest, EqualValuesHaveEqualRepresentations) {
  EXPECT_TRUE(N("1") == N("1.0"));
  EXPECT_TRUE(N("1") == N("10E-1"));
  EXPECT_TRUE(N("1000") == N("1e3"));
  EXPECT_TRUE(N("0") == N("-0.0"));
  EXPECT_FALSE(N("1") == N("-1"));
  EXPECT_FALSE(N("1") == N("10"));
}

TEST(NumberTest, FromPartsBuildsTheSameValueAsParse) {
  EXPECT_TRUE(Number::FromParts(false, "15", 1) == N("1.5"));
  EXPECT_TRUE(Number::FromParts(true, "1", -2) == N("-0.001"));
  EXPECT_TRUE(Number::FromParts(false, "", 0) == N("0"));
  EXPECT_EQ(Number::FromParts(false, "1", 126).ToString(),
            "1" + Repeat('0', 125));
}

TEST(NumberTest, LongestCanonicalTextHasNoExponent) {
  // DynamoDB returns plain digits even at the ends of the range.
  const std::string smallest =
      N("-1.2345678901234567890123456789012345678E-130").ToString();
  EXPECT_EQ(smallest, "-0." + Repeat('0', 129) +
                          "12345678901234567890123456789012345678");
  EXPECT_EQ(smallest.size(), 170u);
  EXPECT_EQ(smallest.find_first_of("eE"), std::string::npos);
}

// --- Compare
// ------------------------------------------------------------------

struct CompareCase {
  std::string a;
  std::string b;
  int expected;  // sign
};

void PrintTo(const CompareCase& c, std::ostream* os) {
  *os << c.a << " vs " << c.b;
}

class CompareTest : public ::testing::TestWithParam<CompareCase> {};

int Sign(int v) { return (v > 0) - (v < 0); }

TEST_P(CompareTest, ComparesNumerically) {
  const CompareCase& c = GetParam();
  const Number a = N(c.a);
  const Number b = N(c.b);
  EXPECT_EQ(Sign(a.Compare(b)), c.expected) << c.a << " vs " << c.b;
  EXPECT_EQ(Sign(b.Compare(a)), -c.expected) << c.b << " vs " << c.a;
  EXPECT_EQ(a < b, c.expected < 0);
  EXPECT_EQ(a == b, c.expected == 0);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CompareTest,
    ::testing::Values(
        CompareCase{"1", "2", -1}, CompareCase{"1", "1.0", 0},
        CompareCase{"-1", "1", -1}, CompareCase{"0", "-0", 0},
        CompareCase{"-2", "-1", -1}, CompareCase{"0.12", "0.123", -1},
        CompareCase{"2", "123", -1}, CompareCase{"0.2", "0.123", 1},
        CompareCase{"100", "99", 1}, CompareCase{"1e-130", "0", 1},
        CompareCase{"-1e-130", "0", -1}, CompareCase{"9.99e125", "1e125", 1},
        CompareCase{"-5", "-50", 1}, CompareCase{"123", "1.23e2", 0},
        CompareCase{"-0.001", "-0.0011", 1},
        CompareCase{"12345678901234567890123456789012345678",
                    "12345678901234567890123456789012345679", -1},
        CompareCase{"-9.9999999999999999999999999999999999999E+125",
                    "9.9999999999999999999999999999999999999E+125", -1}));

// --- Add and Subtract
// ---------------------------------------------------------

struct ArithmeticCase {
  std::string a;
  char op;  // '+' or '-'
  std::string b;
  std::string result;  // canonical text, or empty when `error` is set
  std::string error;
};

void PrintTo(const ArithmeticCase& c, std::ostream* os) {
  *os << c.a << ' ' << c.op << ' ' << c.b;
}

class ArithmeticTest : public ::testing::TestWithParam<ArithmeticCase> {};

TEST_P(ArithmeticTest, IsExact) {
  const ArithmeticCase& c = GetParam();
  const Result<Number> r = c.op == '+' ? Number::Add(N(c.a), N(c.b))
                                       : Number::Subtract(N(c.a), N(c.b));
  if (!c.error.empty()) {
    EXPECT_THAT(r, StatusIs(ErrorCode::kValidation, StrEq(c.error)))
        << c.a << " " << c.op << " " << c.b;
    return;
  }
  ASSERT_TRUE(r.ok()) << c.a << " " << c.op << " " << c.b << ": "
                      << r.status().ToString();
  EXPECT_EQ(r->ToString(), c.result) << c.a << " " << c.op << " " << c.b;
  EXPECT_TRUE(*r == N(c.result));
}

ArithmeticCase Ok(std::string a, char op, std::string b, std::string result) {
  return ArithmeticCase{std::move(a), op, std::move(b), std::move(result), ""};
}
ArithmeticCase Err(std::string a, char op, std::string b, std::string error) {
  return ArithmeticCase{std::move(a), op, std::move(b), "", std::move(error)};
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ArithmeticTest,
    ::testing::Values(
        Ok("1", '+', "1", "2"), Ok("0.1", '+', "0.2", "0.3"),
        Ok("1", '+', "-1", "0"), Ok("-1", '+', "-1", "-2"),
        Ok("0.5", '+', "0.5", "1"), Ok("123.456", '+', "-0.456", "123"),
        Ok("5", '-', "7", "-2"), Ok("-5", '-', "-7", "2"),
        Ok("0", '+', "-3.5", "-3.5"), Ok("-3.5", '-', "0", "-3.5"),
        Ok("0", '-', "3.5", "-3.5"), Ok("0", '-', "0", "0"),
        Ok("1e-130", '-', "1e-130", "0"), Ok("999", '+', "1", "1000"),
        Ok("1000", '-', "1", "999"), Ok("0.001", '-', "1", "-0.999"),
        // alternator's precision checks, written against DynamoDB.
        Ok("1", '+', "10000000000000000000000", "10000000000000000000001"),
        Ok("10000000000000000000000", '-', "1", "9999999999999999999999"),
        Ok("9e125", '+', "9e124", "99" + Repeat('0', 124)),
        // A carry into a 39th position is fine when the result needs fewer
        // digits.
        Ok(Repeat('9', 38), '+', "1", "1" + Repeat('0', 38)),
        Ok("1e-100", '+', "1e-130",
           "0." + Repeat('0', 99) + "1" + Repeat('0', 29) + "1"),
        Ok("-9.9999999999999999999999999999999999999E+125", '+',
           "9.9999999999999999999999999999999999999E+125", "0"),
        // Out of range.
        Err("9e125", '+', "9e125", kOverflow),
        Err("9e125", '-', "-9e125", kOverflow),
        Err("-9e125", '-', "9e125", kOverflow),
        Err("9.9999999999999999999999999999999999999E+125", '+', "1E+125",
            kOverflow),
        Err("1.2345e-130", '-', "1.2344e-130", kUnderflow),
        Err("-1.0000000000000000000000000000000000001e-100", '+', "1e-100",
            kUnderflow),
        // More than 38 digits: DynamoDB reports these with its overflow
        // message (alternator test_update_expression_plus_imprecise).
        Err("1e50", '+', "1", kOverflow), Err("1e50", '-', "1", kOverflow),
        Err(Repeat('9', 38), '+', "0.1", kOverflow),
        Err("1", '+', "1e-40", kOverflow)));

// Exact integer arithmetic on values that fit in int64, spread over many
// exponents, agrees with Add and Subtract.
TEST(NumberTest, AddAndSubtractMatchIntegerArithmetic) {
  std::mt19937_64 rng(20240601);
  std::uniform_int_distribution<int64_t> value(-999999999999, 999999999999);
  std::uniform_int_distribution<int> shift(0, 4);
  std::uniform_int_distribution<int> exponent(-120, 100);
  for (int i = 0; i < 5000; ++i) {
    const int64_t a = value(rng);
    const int k = shift(rng);
    int64_t scale = 1;
    for (int j = 0; j < k; ++j) scale *= 10;
    const int64_t b = value(rng);
    const int e = exponent(rng);
    // a*10^e and b*10^(e+k) = (b*scale)*10^e.
    const std::string ta = std::to_string(a) + "e" + std::to_string(e);
    const std::string tb = std::to_string(b) + "e" + std::to_string(e + k);
    const std::string sum =
        std::to_string(a + b * scale) + "e" + std::to_string(e);
    const std::string diff =
        std::to_string(a - b * scale) + "e" + std::to_string(e);
    ASSERT_OK_AND_ASSIGN(Number s, Number::Add(N(ta), N(tb)));
    ASSERT_OK_AND_ASSIGN(Number d, Number::Subtract(N(ta), N(tb)));
    ASSERT_TRUE(s == N(sum)) << ta << " + " << tb << " = " << s.ToString();
    ASSERT_TRUE(d == N(diff)) << ta << " - " << tb << " = " << d.ToString();
    ASSERT_EQ(Sign(N(ta).Compare(N(tb))), Sign(d.Compare(Number())))
        << ta << " vs " << tb;
  }
}

TEST(NumberTest, SubtractIsAntiSymmetric) {
  // All pairwise differences fit in 38 digits.
  const std::vector<std::string> values = {"0",    "1",       "-2.5",
                                           "1e30", "3.25e-5", "-77"};
  for (const std::string& x : values) {
    for (const std::string& y : values) {
      ASSERT_OK_AND_ASSIGN(Number xy, Number::Subtract(N(x), N(y)));
      ASSERT_OK_AND_ASSIGN(Number yx, Number::Subtract(N(y), N(x)));
      ASSERT_OK_AND_ASSIGN(Number zero, Number::Add(xy, yx));
      EXPECT_TRUE(zero.is_zero()) << x << ", " << y;
      EXPECT_FALSE(zero.negative());
    }
  }
}

}  // namespace
}  // namespace dynarock
