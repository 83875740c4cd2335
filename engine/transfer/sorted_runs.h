// engine/transfer/sorted_runs.h
//
// SortedRuns sorts more (key, value) pairs than memory should hold, the
// last value added for a key winning: what ImportTable needs to hand the
// TableRestorer its items in key order without keeping them all.
//
// Pairs are kept in a map until their bytes reach the budget; the map is
// then written as a run, an SST file of ascending keys (Store::NewSstWriter)
// in the scratch directory, and emptied. Runs are kept in levels: when a
// level holds 16 runs they are merged into one run of the next level (as
// an LSM tree's tiers), so the run files stay at most 15 per level, and
// levels grow with the logarithm of the data (10 GB in 64 MiB runs: 160
// runs, two levels). Merge visits every key once in ascending order with
// its last value: the map alone when no run was written (no file at all),
// else a k-way merge of the runs' iterators (the last map written as the
// newest run), where for a key in several runs the newest run's value wins.
//
// Memory: the map, at most `budget_bytes` of keys and values plus the
// map's own nodes; during a merge one iterator per run merged (RocksDB's
// reader of the file: its index, one data block and its readahead), at
// most 16 while spilling, 15 per level at the end.
//
// The scratch directory is removed by the destructor. A process that dies
// first leaves it: its owner removes it at the next open (imports.h).
//
// Not thread-safe.

#ifndef DYNAROCK_ENGINE_TRANSFER_SORTED_RUNS_H_
#define DYNAROCK_ENGINE_TRANSFER_SORTED_RUNS_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"

namespace dynarock {

class SortedRuns {
 public:
  // Runs go to `dir` (in `store`'s Env, created at the first run), which
  // must be this object's alone. `store` must outlive this.
  SortedRuns(Store* store, std::string dir, size_t budget_bytes);
  ~SortedRuns();
  SortedRuns(const SortedRuns&) = delete;
  SortedRuns& operator=(const SortedRuns&) = delete;

  // Adds a pair; a key added before gets this value. Errors: kIOError
  // (writing a run).
  Status Add(std::string_view key, std::string_view value);
  // Calls `visit` with every key once, ascending, and its last value;
  // stops at the first error `visit` returns. Once, after the last Add.
  // Errors: kIOError, kCorruption, or what `visit` returned.
  using Visitor = std::function<Status(std::string_view key, std::string_view value)>;
  Status Merge(const Visitor& visit);

  // Maps written as runs so far.
  size_t runs() const { return spills_; }
  // Run files now (runs merged into one count as one).
  size_t files() const;

 private:
  // Writes the map as the newest run, empties it, and merges full levels.
  Status Spill();
  // A new run file's name.
  std::string NewFile();
  // The run files, oldest first.
  std::vector<std::string> OldestFirst() const;
  // The k-way merge of `runs` (oldest first) into `visit`.
  Status MergeFiles(const std::vector<std::string>& runs, const Visitor& visit) const;

  Store* const store_;
  const std::string dir_;
  const size_t budget_bytes_;
  std::map<std::string, std::string, std::less<>> pending_;
  size_t pending_bytes_ = 0;
  std::vector<std::vector<std::string>> levels_;  // run files by level, each oldest first
  size_t spills_ = 0;
  uint64_t next_file_ = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_SORTED_RUNS_H_
