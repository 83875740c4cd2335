// engine/snapshot_engine.h
//
// The Engine that Engine::Open returns: it owns the Store and an engine
// opened on it (OpenEngineOnStore, engine/engine.cc), forwards every
// operation to it under a shared lock, and serves the database-snapshot
// extension itself. RestoreSnapshot takes the lock exclusively, closes the
// inner engine, replaces every column family's contents with the
// snapshot's SST files (a range deletion, then IngestExternalFile) and
// opens a new inner engine on the same Store, so in-memory databases reset
// too. Thread-safe.

#ifndef DYNAROCK_ENGINE_SNAPSHOT_ENGINE_H_
#define DYNAROCK_ENGINE_SNAPSHOT_ENGINE_H_

#include <memory>

#include "engine/engine.h"
#include "engine/options.h"
#include "engine/status.h"

namespace dynarock {

class Store;

// An engine (everything but the snapshot operations) on `store`, which it
// shares. Errors: those of Engine::Open.
Result<std::unique_ptr<Engine>> OpenEngineOnStore(const EngineOptions& options,
                                                   std::shared_ptr<Store> store);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_SNAPSHOT_ENGINE_H_
