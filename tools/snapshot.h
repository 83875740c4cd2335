// tools/snapshot.h
//
// `dynarock snapshot create|restore|list|delete [NAME]`: the database-
// snapshot extension (docs/backups.md) from the command line, against a
// running `dynarock serve` (--endpoint, the DynamoRock_20251121.*Snapshot
// calls) or, with --db-path, directly on a data directory no server has
// open. A test suite takes a snapshot once and restores it before each test.

#ifndef DYNAROCK_TOOLS_SNAPSHOT_H_
#define DYNAROCK_TOOLS_SNAPSHOT_H_

#include <string>

namespace dynarock::tools {

struct SnapshotOptions {
  std::string action;  // create | restore | list | delete
  std::string name;    // required except for list
  std::string endpoint = "http://127.0.0.1:8000";
  std::string db_path;  // set: open the directory instead of calling a server
};

// Prints the answer (JSON) to stdout; returns 0, or 1 with the error on
// stderr ("dynarock snapshot: ResourceNotFoundException: Snapshot not
// found: x").
int RunSnapshot(const SnapshotOptions& options);

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_SNAPSHOT_H_
