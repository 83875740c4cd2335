#include "engine/transfer/sorted_runs.h"

#include <memory>
#include <queue>
#include <utility>

namespace dynarock {
namespace {

// Runs merged at once: when a level holds this many runs, they are merged
// into one run of the next level, so the runs open in a merge stay at most
// (kFanIn - 1) per level, and each pair is rewritten once per level.
constexpr size_t kFanIn = 16;

// What a map node costs beside its key and value bytes (the node, the two
// strings' headers), counted in the budget.
constexpr size_t kNodeBytes = 96;

// One run's iterator in the merge, with the run's age (higher: newer).
struct Head {
  StoreIterator* it;
  size_t run;
};

// priority_queue's order: the smallest key on top, and for one key the
// newest run.
struct Later {
  bool operator()(const Head& a, const Head& b) const {
    const int c = a.it->key().compare(b.it->key());
    return c > 0 || (c == 0 && a.run < b.run);
  }
};

}  // namespace

SortedRuns::SortedRuns(Store* store, std::string dir, size_t budget_bytes)
    : store_(store), dir_(std::move(dir)), budget_bytes_(budget_bytes) {}

SortedRuns::~SortedRuns() {
  if (spills_ > 0) store_->RemoveAll(dir_).ok();  // best effort: the next open removes it
}

size_t SortedRuns::files() const {
  size_t n = 0;
  for (const std::vector<std::string>& level : levels_) n += level.size();
  return n;
}

std::vector<std::string> SortedRuns::OldestFirst() const {
  // A level's runs were all written after the runs of the levels above it
  // were (a level is emptied into the next one when full), and in order.
  std::vector<std::string> files;
  for (size_t l = levels_.size(); l-- > 0;) {
    files.insert(files.end(), levels_[l].begin(), levels_[l].end());
  }
  return files;
}

Status SortedRuns::Add(std::string_view key, std::string_view value) {
  auto it = pending_.find(key);
  if (it == pending_.end()) {
    pending_bytes_ += key.size() + value.size() + kNodeBytes;
    pending_.emplace(std::string(key), std::string(value));
  } else {
    pending_bytes_ = pending_bytes_ - it->second.size() + value.size();
    it->second.assign(value);
  }
  if (pending_bytes_ >= budget_bytes_) return Spill();
  return Status::OK();
}

Status SortedRuns::Spill() {
  if (pending_.empty()) return Status::OK();
  if (spills_ == 0) DR_RETURN_IF_ERROR(store_->CreateDirs(dir_));
  ++spills_;
  const std::string file = NewFile();
  if (levels_.empty()) levels_.emplace_back();
  levels_[0].push_back(file);
  std::unique_ptr<SstWriter> writer = store_->NewSstWriter(file);
  // Each node is freed as soon as it is written: the map shrinks as the
  // file grows.
  while (!pending_.empty()) {
    auto node = pending_.extract(pending_.begin());
    DR_RETURN_IF_ERROR(writer->Put(node.key(), node.mapped()));
  }
  pending_bytes_ = 0;
  DR_RETURN_IF_ERROR(writer->Finish());
  // A full level becomes one run of the next.
  for (size_t l = 0; l < levels_.size() && levels_[l].size() >= kFanIn; ++l) {
    const std::string merged = NewFile();
    std::unique_ptr<SstWriter> out = store_->NewSstWriter(merged);
    DR_RETURN_IF_ERROR(MergeFiles(levels_[l], [&](std::string_view key, std::string_view value) {
      return out->Put(key, value);
    }));
    DR_RETURN_IF_ERROR(out->Finish());
    for (const std::string& f : levels_[l]) store_->RemoveAll(f).ok();
    levels_[l].clear();
    if (l + 1 == levels_.size()) levels_.emplace_back();
    levels_[l + 1].push_back(merged);
  }
  return Status::OK();
}

std::string SortedRuns::NewFile() {
  return dir_ + "/run-" + std::to_string(next_file_++) + ".sst";
}

Status SortedRuns::Merge(const Visitor& visit) {
  if (spills_ == 0) {
    for (const auto& [key, value] : pending_) DR_RETURN_IF_ERROR(visit(key, value));
    return Status::OK();
  }
  DR_RETURN_IF_ERROR(Spill());
  return MergeFiles(OldestFirst(), visit);
}

Status SortedRuns::MergeFiles(const std::vector<std::string>& runs, const Visitor& visit) const {
  std::vector<std::unique_ptr<StoreIterator>> iterators;
  std::priority_queue<Head, std::vector<Head>, Later> heads;
  for (size_t run = 0; run < runs.size(); ++run) {
    DR_ASSIGN_OR_RETURN(std::unique_ptr<StoreIterator> it, store_->NewSstIterator(runs[run]));
    it->SeekToFirst();
    DR_RETURN_IF_ERROR(it->status());
    if (it->Valid()) heads.push(Head{it.get(), run});
    iterators.push_back(std::move(it));
  }
  // Moves `h` to its run's next entry and back into the queue.
  auto advance = [&heads](Head h) -> Status {
    h.it->Next();
    DR_RETURN_IF_ERROR(h.it->status());
    if (h.it->Valid()) heads.push(h);
    return Status::OK();
  };
  std::string key;
  while (!heads.empty()) {
    const Head top = heads.top();
    heads.pop();
    key.assign(top.it->key());
    DR_RETURN_IF_ERROR(visit(key, top.it->value()));
    DR_RETURN_IF_ERROR(advance(top));
    // The same key in older runs: replaced.
    while (!heads.empty() && heads.top().it->key() == key) {
      const Head older = heads.top();
      heads.pop();
      DR_RETURN_IF_ERROR(advance(older));
    }
  }
  return Status::OK();
}

}  // namespace dynarock
