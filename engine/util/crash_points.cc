#include "engine/util/crash_points.h"

#include <atomic>
#include <set>

#include "engine/util/mutex.h"

namespace dynarock {
namespace {

std::atomic<bool> g_armed{false};

Mutex& PointsMutex() {
  static Mutex mu;
  return mu;
}

std::set<std::string, std::less<>>& Points() {
  static std::set<std::string, std::less<>> points;
  return points;
}

}  // namespace

Status CrashPoint(std::string_view name) {
  if (!g_armed.load(std::memory_order_relaxed)) return Status::OK();
  MutexLock lock(&PointsMutex());
  if (Points().count(name) == 0) return Status::OK();
  return Status::Internal("crash point " + std::string(name));
}

void ArmCrashPoint(std::string name) {
  MutexLock lock(&PointsMutex());
  Points().insert(std::move(name));
  g_armed.store(true, std::memory_order_relaxed);
}

void DisarmCrashPoints() {
  MutexLock lock(&PointsMutex());
  Points().clear();
  g_armed.store(false, std::memory_order_relaxed);
}

}  // namespace dynarock
