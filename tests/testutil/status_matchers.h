// tests/testutil/status_matchers.h
//
// GoogleTest matchers for Status and Result<T>, after abseil's
// status_matchers.h: EXPECT_THAT(s, IsOk()),
// EXPECT_THAT(r, StatusIs(ErrorCode::kValidation, HasSubstr("...")))
// and ASSERT_OK_AND_ASSIGN(auto v, expr).

#ifndef DYNAROCK_TESTS_TESTUTIL_STATUS_MATCHERS_H_
#define DYNAROCK_TESTS_TESTUTIL_STATUS_MATCHERS_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>

#include "engine/status.h"

namespace dynarock {

inline void PrintTo(const Status& s, std::ostream* os) { *os << s.ToString(); }
inline void PrintTo(ErrorCode c, std::ostream* os) { *os << ErrorCodeName(c); }
template <typename T>
void PrintTo(const Result<T>& r, std::ostream* os) {
  *os << (r.ok() ? std::string("OK result") : r.status().ToString());
}

namespace testing_internal {
inline const Status& GetStatus(const Status& s) { return s; }
template <typename T>
const Status& GetStatus(const Result<T>& r) {
  return r.status();
}
}  // namespace testing_internal

MATCHER(IsOk, "is OK") {
  const Status& s = testing_internal::GetStatus(arg);
  if (!s.ok()) *result_listener << s.ToString();
  return s.ok();
}

MATCHER_P2(StatusIs, code, message_matcher, "") {
  const Status& s = testing_internal::GetStatus(arg);
  *result_listener << s.ToString();
  return s.code() == code &&
         ::testing::Matches(message_matcher)(s.message());
}

}  // namespace dynarock

#define DR_TEST_CONCAT_INNER_(a, b) a##b
#define DR_TEST_CONCAT_(a, b) DR_TEST_CONCAT_INNER_(a, b)
#define ASSERT_OK(expr) ASSERT_THAT((expr), ::dynarock::IsOk())
#define EXPECT_OK(expr) EXPECT_THAT((expr), ::dynarock::IsOk())
#define ASSERT_OK_AND_ASSIGN(lhs, expr) \
  ASSERT_OK_AND_ASSIGN_IMPL_(DR_TEST_CONCAT_(dr_result_, __LINE__), lhs, expr)
#define ASSERT_OK_AND_ASSIGN_IMPL_(result, lhs, expr)       \
  auto result = (expr);                                     \
  ASSERT_TRUE(result.ok()) << result.status().ToString();   \
  lhs = std::move(result).value()

#endif  // DYNAROCK_TESTS_TESTUTIL_STATUS_MATCHERS_H_
