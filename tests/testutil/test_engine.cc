#include "tests/testutil/test_engine.h"

#include <cstdio>
#include <cstdlib>

namespace dynarock {

EngineOptions TestEngine::Options() {
  EngineOptions options;
  options.in_memory = true;
  options.table_create_delay_micros = 0;
  options.table_delete_delay_micros = 0;
  return options;
}

TestEngine::TestEngine(EngineOptions options) {
  options.clock = &clock;
  auto opened = Engine::Open(options);
  if (!opened.ok()) {
    std::fprintf(stderr, "TestEngine: %s\n", opened.status().ToString().c_str());
    std::abort();
  }
  engine = std::move(opened).value();
}

}  // namespace dynarock
