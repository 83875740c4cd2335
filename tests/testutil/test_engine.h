// tests/testutil/test_engine.h
//
// An in-memory Engine on a SimulatedClock, for tests that must not touch the
// disk or sleep. Table status delays are zero unless a test asks for them.

#ifndef DYNAROCK_TESTS_TESTUTIL_TEST_ENGINE_H_
#define DYNAROCK_TESTS_TESTUTIL_TEST_ENGINE_H_

#include <memory>
#include <string>

#include "engine/clock.h"
#include "engine/engine.h"

namespace dynarock {

struct TestEngine {
  SimulatedClock clock;
  std::unique_ptr<Engine> engine;

  // Opens an in-memory engine on `clock`; aborts the test binary on failure.
  explicit TestEngine(EngineOptions options = Options());
  // In-memory, simulated clock, zero status delays.
  static EngineOptions Options();

  Engine* operator->() { return engine.get(); }
};

// An on-demand table keyed by pk (S) and, with `with_sort`, sk (N).
CreateTableRequest SimpleTable(const std::string& name, bool with_sort = true);
// An item of a SimpleTable: pk, sk and a payload attribute.
Item SimpleItem(const std::string& pk, const char* sk, std::string payload = "x");
// The key of a SimpleTable item.
Item SimpleKey(const std::string& pk, const char* sk);

}  // namespace dynarock

#endif  // DYNAROCK_TESTS_TESTUTIL_TEST_ENGINE_H_
