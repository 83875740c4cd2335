// Crash points (engine/util/crash_points.h): a point fails only while it
// is armed, and disarming restores every point.
#include "engine/util/crash_points.h"

#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

TEST(CrashPointsTest, OnlyAnArmedPointFails) {
  EXPECT_OK(CrashPoint("a"));
  ArmCrashPoint("a");
  EXPECT_THAT(CrashPoint("a"), StatusIs(ErrorCode::kInternal, "crash point a"));
  EXPECT_OK(CrashPoint("b"));
  DisarmCrashPoints();
  EXPECT_OK(CrashPoint("a"));
}

}  // namespace
}  // namespace dynarock
