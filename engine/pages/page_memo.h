// engine/pages/page_memo.h
//
// PageMemo: what recent count_only pages (PageRequest::count_only: Select
// COUNT without a filter) read, so that ReadPath answers a repeat of the
// same page without reading it again. Such a page is a pure function of its
// request and the store's contents, so a remembered page is exactly what
// reading would give as long as the store's write generation
// (Store::WriteGeneration) has not moved: any write or ingestion anywhere
// forgets everything. Admission and charging are not the memo's: a repeat
// is admitted and charged as a read (read_path.h), so capacity and
// throttling see it as they would see the read.
//
// A client polling a count, or a simulation re-reading unchanged pages
// (tools/simulate/), pays for the storage read once. Bounded: past
// kMaxBytes of remembered pages it starts over.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_PAGES_PAGE_MEMO_H_
#define DYNAROCK_ENGINE_PAGES_PAGE_MEMO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "engine/pages/query_scan.h"
#include "engine/util/mutex.h"

namespace dynarock {

class PageMemo {
 public:
  // About what the remembered pages may hold at most (keys, runs, last
  // items), so that a scan over many item collections cannot grow it
  // without bound.
  static constexpr int64_t kMaxBytes = int64_t{16} << 20;

  // The page `request` read at write generation `generation`, if it is
  // remembered and nothing was written since. REQUIRES: request.count_only.
  std::optional<Page> Find(const PageRequest& request, uint64_t generation);
  // Remembers what `request` read; `generation` is the store's write
  // generation read before the read began. A page read before a newer
  // generation that the memo already knows of is dropped.
  // REQUIRES: request.count_only, and `page` holds no items.
  void Remember(const PageRequest& request, uint64_t generation, const Page& page);

  // Pages answered from the memo so far.
  int64_t hits() const;

 private:
  // Forgets everything remembered at an older generation than `generation`.
  // Returns whether `generation` is the memo's (not older).
  bool AdvanceTo(uint64_t generation) REQUIRES(mu_);

  mutable Mutex mu_;
  uint64_t generation_ GUARDED_BY(mu_) = 0;
  std::unordered_map<std::string, Page> pages_ GUARDED_BY(mu_);
  int64_t bytes_ GUARDED_BY(mu_) = 0;
  int64_t hits_ GUARDED_BY(mu_) = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PAGES_PAGE_MEMO_H_
