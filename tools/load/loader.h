// tools/load/loader.h
//
// Loader executes LoadPlans against anything that answers DynamoDB
// requests: an api::Client in process, or an HTTP endpoint (a running
// `dynarock serve`, or DynamoDB itself). For each table it sends
// CreateTable, waits until DescribeTable says the table and its indexes are
// ACTIVE, then writes the items with BatchWriteItem, 25 at a time, resending
// UnprocessedItems and retrying throttled requests with exponential backoff
// and full jitter. At the end it asks dynarock to bring its GSIs up to date
// (DynamoRock_20251121.WaitForIndexes; ignored where unknown), so that a
// Query right after a load sees every item.
//
// Nothing is written when any item is invalid (unless skip_invalid) or when
// a table already exists (unless replace): both are found before the first
// CreateTable.
//
// Not thread-safe: one Load at a time per Loader.

#ifndef DYNAROCK_TOOLS_LOAD_LOADER_H_
#define DYNAROCK_TOOLS_LOAD_LOADER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "api/client.h"
#include "engine/status.h"
#include "tools/load/item_check.h"
#include "tools/load/load_plan.h"

namespace dynarock::tools::load {

// Sends one operation ("CreateTable", or an extension's full name
// "DynamoRock_20251121.WaitForIndexes") and returns the response as
// DynamoDB sends it. A transport failure is http_status 0 with the reason
// in `body`.
using SendFn = std::function<api::Response(std::string_view operation,
                                           std::string_view body)>;
using SleepFn = std::function<void(std::chrono::microseconds)>;

struct LoaderOptions {
  // Delete and recreate tables that exist (default: refuse to load).
  bool replace = false;
  // Load the valid items and report the others (default: load nothing).
  bool skip_invalid = false;
  // Tries of one request while it makes no progress before giving up.
  int max_attempts = 12;
  // Backoff before retry n (from 0): uniform in [0, min(max, base * 2^n)].
  std::chrono::microseconds base_backoff{25'000};
  std::chrono::microseconds max_backoff{5'000'000};
  // How long a table may stay CREATING or DELETING.
  std::chrono::seconds table_wait{120};
  // Null: std::this_thread::sleep_for. Tests pass one that records.
  SleepFn sleep;
  // Called after every BatchWriteItem that wrote items.
  std::function<void(size_t written, size_t total)> on_progress;
  uint64_t seed = std::random_device{}();
};

struct LoadReport {
  // Every invalid item, in file order; skipped when skip_invalid.
  std::vector<InvalidItem> invalid;
  size_t tables = 0;   // tables created
  size_t items = 0;    // items written
  size_t batches = 0;  // BatchWriteItem calls that succeeded
  size_t retries = 0;  // requests resent (throttling, UnprocessedItems)
};

class Loader {
 public:
  Loader(SendFn send, LoaderOptions options);

  // Loads every plan. `report` is filled as far as the load went, including
  // the invalid items when it returns an error because of them.
  // Errors:
  //  - kValidation "<n> invalid item(s); nothing was loaded (--skip-invalid
  //    loads the others)";
  //  - kValidation "table T is defined by both A and B";
  //  - kResourceInUse "Table already exists: T (--replace deletes and
  //    recreates it)";
  //  - the error of a request that failed (its DynamoDB message, prefixed
  //    with the operation and table), or that was still throttled after
  //    max_attempts tries.
  Status Load(const std::vector<LoadPlan>& plans, LoadReport* report);

 private:
  // Sends until the response is not a retryable error; the last response.
  api::Response SendWithRetry(std::string_view operation,
                              const std::string& body, LoadReport* report);
  Status CheckTablesAbsent(const std::vector<const PlannedTable*>& tables,
                           std::vector<bool>* exists);
  Status DeleteTable(const std::string& name);
  Status CreateTable(const PlannedTable& table);
  Status WaitForTable(const std::string& name, bool until_gone);
  Status WriteItems(const PlannedTable& table,
                    const std::vector<const PlannedItem*>& items,
                    size_t total, LoadReport* report);
  Status BatchWrite(const std::string& table, api::Json requests,
                    LoadReport* report);
  void Backoff(int attempt);
  void Sleep(std::chrono::microseconds d);

  SendFn send_;
  LoaderOptions options_;
  std::mt19937_64 rng_;
  size_t written_ = 0;
};

// The error type of a DynamoDB error body ("ThrottlingException" from
// "com.amazonaws.dynamodb.v20120810#ThrottlingException"); "" if none.
std::string ErrorTypeOf(const api::Response& response);
// Its message ("message" or "Message"); the body itself if it has none.
std::string ErrorMessageOf(const api::Response& response);

// True for the errors a client should retry after a backoff: throttling,
// RequestLimitExceeded and 5xx.
bool IsRetryable(const api::Response& response);

}  // namespace dynarock::tools::load

#endif  // DYNAROCK_TOOLS_LOAD_LOADER_H_
