// engine/options.h
//
// EngineOptions: everything an embedding program chooses when it opens an
// Engine. Defaults give an on-disk engine on the real clock.

#ifndef DYNAROCK_ENGINE_OPTIONS_H_
#define DYNAROCK_ENGINE_OPTIONS_H_

#include <cstdint>
#include <string>

namespace dynarock {

class Clock;

struct EngineOptions {
  // Directory of the RocksDB database; created if missing. Ignored when
  // in_memory is set.
  std::string path = "dynarock-data";
  // Keep everything in memory (RocksDB on an in-memory Env); nothing
  // survives the Engine.
  bool in_memory = false;
  // The one source of time. Null means RealClock::Default(). Not owned;
  // must outlive the Engine.
  Clock* clock = nullptr;
  // How long a new table stays CREATING and a deleted one DELETING before it
  // is ACTIVE or gone. Short but non-zero by default, so that SDK waiters
  // see the transitions DynamoDB has.
  int64_t table_create_delay_micros = 50'000;
  int64_t table_delete_delay_micros = 50'000;
  // Synchronous RocksDB writes (fsync of the WAL on every write). Off by
  // default: the WAL is still written, so a process crash loses nothing;
  // only a machine crash can lose the last writes.
  bool sync_writes = false;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_OPTIONS_H_
