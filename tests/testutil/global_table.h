// tests/testutil/global_table.h
//
// The vocabulary of the global-tables tests (tests/engine/replication/):
// one access key's tables in two Regions of a TestEngine, a table "Tab"
// made global, and the item calls the tests make on it.

#ifndef DYNAROCK_TESTS_TESTUTIL_GLOBAL_TABLE_H_
#define DYNAROCK_TESTS_TESTUTIL_GLOBAL_TABLE_H_

#include <filesystem>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "tests/testutil/test_engine.h"

namespace dynarock::global_table_test {

// The replication lag of Options().
inline constexpr int64_t kLag = 1'000'000;

// Access key "AKID"'s tables in `region`.
Scope In(const std::string& region);
inline const Scope kEast = In("us-east-1");
inline const Scope kWest = In("us-west-2");

// TestEngine::Options with a replication lag of kLag.
EngineOptions Options();

// PutItem / DeleteItem of a SimpleItem of "Tab" (pk, sk "1", payload).
void Put(Engine* db, const Scope& scope, const std::string& pk, const std::string& payload);
void Delete(Engine* db, const Scope& scope, const std::string& pk);
// The item's payload (a strongly consistent read), or "" when it is absent.
std::string Get(Engine* db, const Scope& scope, const std::string& pk);

// UpdateTable of "Tab" with ReplicaUpdates.
Result<TableDescription> Replicas(Engine* db, const Scope& scope,
                                  std::vector<ReplicationGroupUpdate> updates);
ReplicationGroupUpdate Action(ReplicationGroupUpdate::Action action, const std::string& region);
TableDescription Describe(Engine* db, const Scope& scope);
// Every record of "Tab"'s stream in `scope`, all shards.
std::vector<StreamRecord> StreamRecords(Engine* db, const Scope& scope);

// A database on disk for restart and crash tests: a fresh directory under
// the temp dir named `name` and the pid (removed again on destruction), and
// Options() opening it on `clock`.
struct DiskDatabase {
  explicit DiskDatabase(const std::string& name);
  ~DiskDatabase();
  DiskDatabase(const DiskDatabase&) = delete;
  DiskDatabase& operator=(const DiskDatabase&) = delete;

  SimulatedClock clock;
  std::filesystem::path dir;
  EngineOptions options;
};

// A table "Tab" in us-east-1 with a replica in us-west-2, on a clock past
// the lag (so that records stamped at 0 are due).
void MakeGlobal(TestEngine& db, bool stream = false);

}  // namespace dynarock::global_table_test

#endif  // DYNAROCK_TESTS_TESTUTIL_GLOBAL_TABLE_H_
