#include "engine/pages/page_memo.h"

#include <cassert>
#include <utility>

#include "engine/value/item_size.h"

namespace dynarock {
namespace {

void AppendPart(std::string_view part, std::string* key) {
  const uint32_t size = static_cast<uint32_t>(part.size());
  key->append(reinterpret_cast<const char*>(&size), sizeof size);
  key->append(part);
}

// Everything of the request a count_only page depends on: the column
// family, the range, where it resumes, the direction and the stops. (The
// range's keys carry the table or index id.)
std::string MemoKey(const PageRequest& r) {
  std::string key;
  key.push_back(static_cast<char>(r.cf));
  key.push_back(r.forward ? 'f' : 'b');
  const int64_t numbers[] = {r.limit.value_or(-1), r.max_bytes};
  key.append(reinterpret_cast<const char*>(numbers), sizeof numbers);
  AppendPart(r.range.lower, &key);
  AppendPart(r.range.upper, &key);
  key.push_back(r.exclusive_start ? 's' : '-');
  if (r.exclusive_start) AppendPart(*r.exclusive_start, &key);
  return key;
}

// About the memory a remembered page takes.
int64_t Footprint(const std::string& key, const Page& page) {
  int64_t bytes = static_cast<int64_t>(key.size() + sizeof(Page));
  for (const PartitionRun& run : page.runs) {
    bytes += static_cast<int64_t>(sizeof run + run.first_key.size());
  }
  if (page.last_evaluated_storage_key) {
    bytes += static_cast<int64_t>(page.last_evaluated_storage_key->size());
  }
  if (page.last_evaluated_item) bytes += 2 * ItemSize(*page.last_evaluated_item);
  return bytes;
}

}  // namespace

bool PageMemo::AdvanceTo(uint64_t generation) {
  if (generation < generation_) return false;
  if (generation > generation_) {
    pages_.clear();
    bytes_ = 0;
    generation_ = generation;
  }
  return true;
}

std::optional<Page> PageMemo::Find(const PageRequest& request,
                                   uint64_t generation) {
  assert(request.count_only);
  const std::string key = MemoKey(request);
  MutexLock lock(&mu_);
  if (!AdvanceTo(generation)) return std::nullopt;
  auto it = pages_.find(key);
  if (it == pages_.end()) return std::nullopt;
  ++hits_;
  return it->second;
}

void PageMemo::Remember(const PageRequest& request, uint64_t generation,
                        const Page& page) {
  assert(request.count_only && page.items.empty() && page.encoded_items.empty());
  std::string key = MemoKey(request);
  const int64_t bytes = Footprint(key, page);
  MutexLock lock(&mu_);
  if (!AdvanceTo(generation)) return;
  if (bytes_ + bytes > kMaxBytes) {
    pages_.clear();
    bytes_ = 0;
  }
  if (pages_.try_emplace(std::move(key), page).second) bytes_ += bytes;
}

int64_t PageMemo::hits() const {
  MutexLock lock(&mu_);
  return hits_;
}

}  // namespace dynarock
