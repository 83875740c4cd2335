// engine/requests/snapshot_requests.h
//
// Database snapshots (a dynarock extension, docs/backups.md): what a named
// snapshot of the whole database is.

#ifndef DYNAROCK_ENGINE_REQUESTS_SNAPSHOT_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_SNAPSHOT_REQUESTS_H_

#include <cstdint>
#include <string>

namespace dynarock {

// A named snapshot of the whole database (every table of every namespace).
struct SnapshotInfo {
  std::string name;
  int64_t creation_micros = 0;
  int64_t size_bytes = 0;  // of its files
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_SNAPSHOT_REQUESTS_H_
