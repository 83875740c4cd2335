// engine/table/item_locks.h
//
// Striped mutexes keyed by an item's storage key: writers of the same item
// serialize, so read-old / compute-new / write is atomic per item, while
// writers of different items rarely contend. Thread-safe.

#ifndef DYNAROCK_ENGINE_TABLE_ITEM_LOCKS_H_
#define DYNAROCK_ENGINE_TABLE_ITEM_LOCKS_H_

#include <xxhash.h>

#include <array>
#include <mutex>
#include <string_view>

namespace dynarock {

class ItemLocks {
 public:
  static constexpr size_t kStripes = 1024;

  std::mutex& For(std::string_view item_key) {
    return stripes_[XXH3_64bits(item_key.data(), item_key.size()) % kStripes];
  }

 private:
  std::array<std::mutex, kStripes> stripes_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TABLE_ITEM_LOCKS_H_
