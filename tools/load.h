// tools/load.h
//
// `dynarock load FILE...`: creates the tables of NoSQL Workbench models,
// BatchWriteItem request files or specs (tools/load/model_file.h) and
// writes their items (tools/load/loader.h), either over HTTP to a running
// `dynarock serve` or DynamoDB endpoint, or in process into a database
// directory (--db-path) or a throwaway in-memory one (--in-memory).

#ifndef DYNAROCK_TOOLS_LOAD_H_
#define DYNAROCK_TOOLS_LOAD_H_

#include <string>
#include <vector>

namespace dynarock::tools {

struct LoadOptions {
  std::vector<std::string> files;
  std::string endpoint = "http://127.0.0.1:8000";
  std::string db_path;     // set: load in process into this database
  bool in_memory = false;  // load in process into memory (checks the files)
  bool replace = false;    // delete and recreate existing tables
  bool skip_invalid = false;
  bool progress = false;  // a progress bar even when stderr is not a TTY
  // The caller's identity: over HTTP in the Authorization header, in
  // process directly. `dynarock serve` keeps one set of tables per access
  // key id + region unless --shared-db. Empty: $AWS_ACCESS_KEY_ID, else
  // "dynarock"; $AWS_REGION or $AWS_DEFAULT_REGION, else "us-east-1".
  std::string access_key_id;
  std::string region;
};

// Runs the load; returns the exit code: 0 when everything asked was
// loaded (with --skip-invalid, invalid items skipped and listed), 1
// otherwise. Invalid items go to stderr, one line each; the summary line
// ("loaded 1 table(s), 19 item(s) in 0.04 s") to stdout.
int RunLoad(const LoadOptions& options);

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_LOAD_H_
