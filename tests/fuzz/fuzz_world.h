// tests/fuzz/fuzz_world.h
//
// What every request-level fuzz target shares: an in-memory engine and its
// api::Client holding the target's one table, started over every N runs so
// that a long run stays within libFuzzer's memory limit; the report that
// aborts (so libFuzzer keeps the input) with the request and the response;
// and the check that a response body is a JSON object. Throttling is off
// (the engine's default): the targets look for wrong answers, not 400s.

#ifndef DYNAROCK_TESTS_FUZZ_FUZZ_WORLD_H_
#define DYNAROCK_TESTS_FUZZ_FUZZ_WORLD_H_

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/client.h"
#include "engine/engine.h"

namespace dynarock::fuzz {

// Prints what failed, the request (its first 2,000 bytes: generated
// requests can be megabytes) and the response, then aborts.
[[noreturn]] inline void Fail(const char* what, std::string_view request,
                              const api::Response& r, std::string_view operation = {}) {
  std::fprintf(stderr, "%s\n  %.*s request (%zu bytes): %.*s\n  response: %d %.2000s\n",
               what, static_cast<int>(operation.size()), operation.data(), request.size(),
               static_cast<int>(request.size() < 2000 ? request.size() : 2000),
               request.data(), r.http_status, r.body.c_str());
  std::abort();
}

// The response body as JSON; fails the run unless it is a JSON object.
inline nlohmann::json ParseBody(std::string_view request, const api::Response& r,
                                std::string_view operation = {}) {
  nlohmann::json body = nlohmann::json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) {
    Fail("response body is not a JSON object", request, r, operation);
  }
  return body;
}

// One fuzz target's database. Not thread-safe: libFuzzer runs one input at
// a time.
class FuzzWorld {
 public:
  // `create_table` is the CreateTable body of the target's table; the
  // engine is replaced after `runs_per_engine` runs.
  FuzzWorld(const char* create_table, int runs_per_engine,
            api::ClientOptions client_options = {})
      : create_table_(create_table),
        runs_per_engine_(runs_per_engine),
        client_options_(client_options) {
    Open();
  }

  // Counts a run (starting over with a fresh engine when due) and returns
  // the client it should use.
  const api::Client& NextRun() {
    if (++runs_ > runs_per_engine_) Open();
    return *client_;
  }

 private:
  void Open() {
    client_.reset();
    engine_.reset();
    EngineOptions options;
    options.in_memory = true;
    options.table_create_delay_micros = 0;
    options.table_delete_delay_micros = 0;
    auto opened = Engine::Open(options);
    if (!opened.ok()) std::abort();
    engine_ = std::move(opened).value();
    client_ = std::make_unique<api::Client>(engine_.get(), client_options_);
    if (!client_->Call("CreateTable", create_table_).ok()) std::abort();
    runs_ = 0;
  }

  const char* create_table_;
  int runs_per_engine_;
  api::ClientOptions client_options_;
  int runs_ = 0;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<api::Client> client_;
};

}  // namespace dynarock::fuzz

#endif  // DYNAROCK_TESTS_FUZZ_FUZZ_WORLD_H_
