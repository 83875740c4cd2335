#include "engine/transfer/sorted_runs.h"

#include <memory>
#include <queue>
#include <utility>

namespace dynarock {
namespace {

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
  if (!runs_.empty()) store_->RemoveAll(dir_).ok();  // best effort: the next open removes it
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
  if (runs_.empty()) DR_RETURN_IF_ERROR(store_->CreateDirs(dir_));
  const std::string file = dir_ + "/run-" + std::to_string(runs_.size()) + ".sst";
  runs_.push_back(file);
  std::unique_ptr<SstWriter> writer = store_->NewSstWriter(file);
  // Each node is freed as soon as it is written: the map shrinks as the
  // file grows.
  while (!pending_.empty()) {
    auto node = pending_.extract(pending_.begin());
    DR_RETURN_IF_ERROR(writer->Put(node.key(), node.mapped()));
  }
  pending_bytes_ = 0;
  return writer->Finish();
}

Status SortedRuns::Merge(
    const std::function<Status(std::string_view key, std::string_view value)>& visit) {
  if (runs_.empty()) {
    for (const auto& [key, value] : pending_) DR_RETURN_IF_ERROR(visit(key, value));
    return Status::OK();
  }
  DR_RETURN_IF_ERROR(Spill());
  std::vector<std::unique_ptr<StoreIterator>> iterators;
  std::priority_queue<Head, std::vector<Head>, Later> heads;
  for (size_t run = 0; run < runs_.size(); ++run) {
    DR_ASSIGN_OR_RETURN(std::unique_ptr<StoreIterator> it, store_->NewSstIterator(runs_[run]));
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
