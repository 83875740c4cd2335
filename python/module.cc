// python/module.cc
//
// dynarock._dynarock: a dynarock Engine and its in-process api::Client for
// Python. Everything DynamoDB-shaped (method names, response dicts, errors)
// is done in Python (python/dynarock/); this module only owns the engine, its
// clock, and the one entry point Call(operation, json) -> (status, body),
// which is exactly what the HTTP server puts on the wire.
//
// What it promises:
//  - Call releases the GIL while the engine works, so Python threads drive
//    the engine concurrently (api::Client and Engine are thread-safe).
//  - close() is safe at any time, from any thread: calls that have started
//    finish first, calls after it raise EngineClosedError, and no call ever
//    touches a destroyed engine (a reader-writer lock held by every call, the
//    writer side by close).
//  - Nothing here aborts the interpreter: engine errors come back as
//    DynamoDB error bodies; opening failures and use after close raise.

#include <pybind11/pybind11.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "api/client.h"
#include "api/transfer/s3_directory.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "engine/requests/scope.h"
#include "engine/status.h"

namespace py = pybind11;

namespace dynarock::python {
namespace {

// Raised by every call on a closed engine (Python: dynarock.EngineClosedError).
struct EngineClosed : std::runtime_error {
  EngineClosed() : std::runtime_error("this dynarock Engine is closed") {}
};

// Seconds (a Python float) to the engine's microseconds, refusing what
// cannot be a time: NaN, infinities, and values past int64 microseconds.
int64_t SecondsToMicros(double seconds, const char* what) {
  if (!std::isfinite(seconds) || std::fabs(seconds) > 9.2e12) {
    throw py::value_error(std::string(what) + " must be a finite number of seconds");
  }
  return std::llround(seconds * 1e6);
}

// The options Python passes; every field maps onto EngineOptions (or the
// api::ClientOptions) one to one. Negative values mean "the engine's
// default" where the default is not a plain number Python could repeat.
struct Options {
  std::string path = "dynarock-data";
  bool in_memory = true;
  bool simulated_clock = false;
  double start = 1'700'000'000.0;  // seconds since the epoch (simulated)
  bool throttling = false;
  bool shared_db = true;
  std::string account_id{kDefaultAccountId};
  bool sync_writes = false;
  double table_create_delay = -1;  // seconds; < 0: engine default
  double table_delete_delay = -1;
  double gsi_lag = 0;
  double eventual_read_lag = 0;
  std::string gsi_propagation = "auto";
  double ttl_sweep_interval = 1.0;
  double ttl_deletion_spread = 0;
  double ttl_status_delay = 0;
  double stream_retention = 24 * 3600.0;
  int64_t partition_split_bytes = int64_t{10} << 30;
  int64_t memtable_bytes = 0;
  double due_work_interval = 1.0;  // real clock only; <= 0: no timer
  // The directory that stands for Amazon S3 in exports and imports (bucket
  // B is its subdirectory B), as `dynarock serve --s3-dir`.
  std::string s3_dir = "dynarock-s3";
};

class PyEngine {
 public:
  explicit PyEngine(const Options& o) : options_(o) {
    if (!IsAccountId(o.account_id)) {
      throw py::value_error(
          "account_id must be 12 digits (an AWS account id), not '" +
          o.account_id + "'");
    }
    EngineOptions eo;
    eo.path = o.path;
    s3_ = std::make_unique<api::S3Directory>(o.s3_dir);
    eo.transfer_files = s3_.get();
    eo.in_memory = o.in_memory;
    if (o.simulated_clock) {
      clock_ = std::make_unique<SimulatedClock>(SecondsToMicros(o.start, "start"));
      eo.clock = clock_.get();
    } else if (o.due_work_interval > 0) {
      // As `dynarock serve`: an idle engine still expires items and trims
      // streams. On a simulated clock time moves only in advance().
      eo.due_work_interval_micros =
          std::max<int64_t>(1000, SecondsToMicros(o.due_work_interval,
                                                  "due_work_interval"));
    }
    if (o.table_create_delay >= 0) {
      eo.table_create_delay_micros =
          SecondsToMicros(o.table_create_delay, "table_create_delay");
    }
    if (o.table_delete_delay >= 0) {
      eo.table_delete_delay_micros =
          SecondsToMicros(o.table_delete_delay, "table_delete_delay");
    }
    eo.sync_writes = o.sync_writes;
    eo.throttling = o.throttling;
    eo.gsi_lag_micros = SecondsToMicros(o.gsi_lag, "gsi_lag");
    eo.eventual_read_lag_micros =
        SecondsToMicros(o.eventual_read_lag, "eventual_read_lag");
    if (o.gsi_propagation == "auto") {
      eo.gsi_propagation = GsiPropagation::kAuto;
    } else if (o.gsi_propagation == "background") {
      eo.gsi_propagation = GsiPropagation::kBackground;
    } else if (o.gsi_propagation == "deterministic") {
      eo.gsi_propagation = GsiPropagation::kDeterministic;
    } else {
      throw py::value_error(
          "gsi_propagation must be 'auto', 'background' or 'deterministic'");
    }
    eo.ttl_sweep_interval_micros =
        SecondsToMicros(o.ttl_sweep_interval, "ttl_sweep_interval");
    eo.ttl_deletion_spread_micros =
        SecondsToMicros(o.ttl_deletion_spread, "ttl_deletion_spread");
    eo.ttl_status_delay_micros =
        SecondsToMicros(o.ttl_status_delay, "ttl_status_delay");
    eo.stream_retention_micros =
        SecondsToMicros(o.stream_retention, "stream_retention");
    if (o.partition_split_bytes <= 0) {
      throw py::value_error("partition_split_bytes must be positive");
    }
    eo.capacity.split_size_bytes = o.partition_split_bytes;
    eo.memtable_bytes = o.memtable_bytes;

    Result<std::unique_ptr<Engine>> opened = [&] {
      py::gil_scoped_release release;  // opening an on-disk database takes a while
      return Engine::Open(eo);
    }();
    if (!opened.ok()) {
      throw std::runtime_error("cannot open the dynarock database" +
                               (o.in_memory ? std::string() : " at " + o.path) +
                               ": " + opened.status().ToString());
    }
    engine_ = std::move(opened).value();
    api::ClientOptions co;
    co.shared_db = o.shared_db;
    co.account_id = o.account_id;
    client_ = std::make_unique<api::Client>(engine_.get(), co);
  }

  ~PyEngine() { Close(); }

  // (http_status, body). The body is bytes: DynamoDB JSON is UTF-8, and the
  // Python side parses it without a str round trip.
  py::tuple Call(const std::string& operation, const std::string& body,
                 const std::string& access_key_id, const std::string& region) {
    api::Response response;
    {
      py::gil_scoped_release release;
      std::shared_lock lock(mu_);
      if (closing_.load(std::memory_order_acquire) || client_ == nullptr) {
        throw EngineClosed();
      }
      response = client_->Call(operation, body,
                               api::CallerIdentity{access_key_id, region});
    }
    return py::make_tuple(response.http_status,
                          py::bytes(response.body.data(), response.body.size()));
  }

  // Runs the background work due on the clock (GSI propagation, TTL
  // sweeps, stream maintenance), as every call does first.
  void RunDueWork() {
    py::gil_scoped_release release;
    std::shared_lock lock(mu_);
    if (closing_.load(std::memory_order_acquire) || engine_ == nullptr) {
      throw EngineClosed();
    }
    engine_->RunDueWork();
  }

  // Seconds since the epoch on the engine's clock.
  double Now() const {
    const Clock* clock = clock_ ? static_cast<const Clock*>(clock_.get())
                                : RealClock::Default();
    return static_cast<double>(clock->NowMicros()) / 1e6;
  }
  int64_t NowMicros() const {
    return clock_ ? clock_->NowMicros() : RealClock::Default()->NowMicros();
  }

  // Moves the simulated clock forward, then runs the work that became due
  // (Engine::AdvanceClock), so that after advance() returns, what the new
  // time implies (expired TTL items deleted, GSI changes past their lag
  // applied, stream records trimmed) has happened.
  void AdvanceMicros(int64_t micros) {
    Simulated();
    if (micros < 0) throw py::value_error("the clock cannot go back: advance by >= 0");
    if (micros == 0) return RunDueWork();
    MoveClock([&] { return engine_->AdvanceClock(micros); });
  }
  void SetMicros(int64_t micros) {
    SimulatedClock* clock = Simulated();
    if (micros < clock->NowMicros()) {
      throw py::value_error("the clock cannot go back: set to >= now()");
    }
    MoveClock([&] { return engine_->SetClock(micros); });
  }

  bool simulated() const { return clock_ != nullptr; }
  bool closed() const { return closing_.load(std::memory_order_acquire); }

  // Idempotent. New calls are refused from the moment it starts; it waits
  // for calls in flight (with the GIL released, since they may need it to
  // return), then closes the engine.
  void Close() {
    if (closing_.exchange(true, std::memory_order_acq_rel)) {
      // Someone else closes (or closed): wait until it is done, so that
      // close() returning always means the database is closed.
      std::optional<py::gil_scoped_release> release;
      if (PyGILState_Check()) release.emplace();
      std::unique_lock lock(mu_);
      return;
    }
    std::optional<py::gil_scoped_release> release;
    if (PyGILState_Check()) release.emplace();
    std::unique_lock lock(mu_);
    client_.reset();
    engine_.reset();  // closes RocksDB; before the clock it reads
  }

 private:
  // Runs `move` (an Engine clock call) as every call runs: GIL released,
  // the engine held open. Its errors (a clock moved back by a race) raise.
  template <typename Move>
  void MoveClock(Move move) {
    Result<int64_t> moved = [&] {
      py::gil_scoped_release release;
      std::shared_lock lock(mu_);
      if (closing_.load(std::memory_order_acquire) || engine_ == nullptr) {
        throw EngineClosed();
      }
      return move();
    }();
    if (!moved.ok()) throw py::value_error(moved.status().message());
  }

  SimulatedClock* Simulated() {
    if (clock_ == nullptr) {
      throw std::logic_error(
          "this engine runs on the real clock; open it with clock='simulated' "
          "to advance time");
    }
    return clock_.get();
  }

  const Options options_;
  std::unique_ptr<SimulatedClock> clock_;  // outlives engine_
  std::unique_ptr<api::S3Directory> s3_;   // outlives engine_
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<api::Client> client_;
  std::atomic<bool> closing_{false};
  // Shared by every call, exclusive in Close: the engine is destroyed only
  // when no call holds it.
  mutable std::shared_mutex mu_;
};

}  // namespace
}  // namespace dynarock::python

PYBIND11_MODULE(_dynarock, m) {
  using dynarock::python::EngineClosed;
  using dynarock::python::Options;
  using dynarock::python::PyEngine;
  m.doc() = "dynarock's engine and in-process DynamoDB protocol (use the dynarock package)";

  static py::exception<EngineClosed> closed_error(m, "EngineClosedError",
                                                  PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const EngineClosed& e) {
      closed_error(e.what());
    }
  });

  py::class_<Options>(m, "Options")
      .def(py::init<>())
      .def_readwrite("path", &Options::path)
      .def_readwrite("in_memory", &Options::in_memory)
      .def_readwrite("simulated_clock", &Options::simulated_clock)
      .def_readwrite("start", &Options::start)
      .def_readwrite("throttling", &Options::throttling)
      .def_readwrite("shared_db", &Options::shared_db)
      .def_readwrite("account_id", &Options::account_id)
      .def_readwrite("sync_writes", &Options::sync_writes)
      .def_readwrite("table_create_delay", &Options::table_create_delay)
      .def_readwrite("table_delete_delay", &Options::table_delete_delay)
      .def_readwrite("gsi_lag", &Options::gsi_lag)
      .def_readwrite("eventual_read_lag", &Options::eventual_read_lag)
      .def_readwrite("gsi_propagation", &Options::gsi_propagation)
      .def_readwrite("ttl_sweep_interval", &Options::ttl_sweep_interval)
      .def_readwrite("ttl_deletion_spread", &Options::ttl_deletion_spread)
      .def_readwrite("ttl_status_delay", &Options::ttl_status_delay)
      .def_readwrite("stream_retention", &Options::stream_retention)
      .def_readwrite("partition_split_bytes", &Options::partition_split_bytes)
      .def_readwrite("memtable_bytes", &Options::memtable_bytes)
      .def_readwrite("due_work_interval", &Options::due_work_interval)
      .def_readwrite("s3_dir", &Options::s3_dir);

  py::class_<PyEngine>(m, "Engine")
      .def(py::init<const Options&>())
      .def("call", &PyEngine::Call, py::arg("operation"), py::arg("body"),
           py::arg("access_key_id") = "", py::arg("region") = "",
           "(http_status, body bytes) of one DynamoDB JSON call; GIL released")
      .def("run_due_work", &PyEngine::RunDueWork)
      .def("now", &PyEngine::Now)
      .def("now_micros", &PyEngine::NowMicros)
      .def("advance_micros", &PyEngine::AdvanceMicros, py::arg("micros"))
      .def("set_micros", &PyEngine::SetMicros, py::arg("micros"))
      .def_property_readonly("simulated", &PyEngine::simulated)
      .def_property_readonly("closed", &PyEngine::closed)
      .def("close", &PyEngine::Close);
}
