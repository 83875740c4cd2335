// engine/util/crash_points.h
//
// Named points inside the engine's multi-step changes (several RocksDB
// writes that must all happen, or be finished or undone when the database
// opens again), where a test makes the change stop as a crash would stop
// it: CrashPoint(name) answers kInternal while `name` is armed, and the
// caller returns at once, writing nothing more. The test then closes the
// engine and opens the database again, which is what a process killed at
// that point leaves on disk (every write before the point was committed).
//
// A point costs one relaxed atomic load when none is armed. Process-wide
// (a test arms and disarms around its own engine); thread-safe.

#ifndef DYNAROCK_ENGINE_UTIL_CRASH_POINTS_H_
#define DYNAROCK_ENGINE_UTIL_CRASH_POINTS_H_

#include <string>
#include <string_view>

#include "engine/status.h"

namespace dynarock {

// kInternal "crash point <name>" while `name` is armed; OK otherwise.
Status CrashPoint(std::string_view name);

// Arms `name` (every pass through it fails) / disarms every point.
void ArmCrashPoint(std::string name);
void DisarmCrashPoints();

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_UTIL_CRASH_POINTS_H_
