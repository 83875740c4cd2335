#include "engine/expr/parse_cache.h"

#include <string>
#include <unordered_map>
#include <utility>

#include "engine/expr/parser.h"
#include "engine/util/mutex.h"

namespace dynarock::expr {

namespace {

struct TextHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const {
    return std::hash<std::string_view>()(s);
  }
};

template <typename T>
class Cache {
 public:
  std::shared_ptr<const T> Find(std::string_view text) const {
    ReaderMutexLock lock(&mu_);
    auto it = entries_.find(text);
    return it == entries_.end() ? nullptr : it->second;
  }

  void Insert(std::string_view text, std::shared_ptr<const T> tree) {
    WriterMutexLock lock(&mu_);
    if (entries_.size() >= kParseCacheEntries) entries_.erase(entries_.begin());
    entries_.emplace(std::string(text), std::move(tree));
  }

  size_t Size() const {
    ReaderMutexLock lock(&mu_);
    return entries_.size();
  }

 private:
  mutable SharedMutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const T>, TextHash,
                     std::equal_to<>>
      entries_ GUARDED_BY(mu_);
};

// Never destroyed: requests may run during static destruction.
Cache<ConditionExpression>& ConditionCache(ExpressionKind kind) {
  static auto* caches = new Cache<ConditionExpression>[3];
  switch (kind) {
    case ExpressionKind::kFilter:
      return caches[1];
    case ExpressionKind::kKeyCondition:
      return caches[2];
    default:
      return caches[0];
  }
}

Cache<UpdateExpression>& UpdateCache() {
  static auto* cache = new Cache<UpdateExpression>;
  return *cache;
}

Cache<ProjectionExpression>& ProjectionCache() {
  static auto* cache = new Cache<ProjectionExpression>;
  return *cache;
}

template <typename T, typename ParseFn>
Result<std::shared_ptr<const T>> Lookup(Cache<T>& cache, std::string_view text,
                                        ParseFn parse) {
  if (std::shared_ptr<const T> hit = cache.Find(text)) return hit;
  Result<T> parsed = parse();
  if (!parsed.ok()) return parsed.status();
  auto tree = std::make_shared<const T>(std::move(parsed).value());
  cache.Insert(text, tree);
  return tree;
}

}  // namespace

Result<std::shared_ptr<const ConditionExpression>> CachedParseCondition(
    std::string_view text, ExpressionKind kind) {
  return Lookup(ConditionCache(kind), text,
                [&] { return ParseCondition(text, kind); });
}

Result<std::shared_ptr<const UpdateExpression>> CachedParseUpdate(
    std::string_view text) {
  return Lookup(UpdateCache(), text, [&] { return ParseUpdate(text); });
}

Result<std::shared_ptr<const ProjectionExpression>> CachedParseProjection(
    std::string_view text) {
  return Lookup(ProjectionCache(), text, [&] { return ParseProjection(text); });
}

size_t TEST_ParseCacheSize() {
  return ConditionCache(ExpressionKind::kCondition).Size() +
         ConditionCache(ExpressionKind::kFilter).Size() +
         ConditionCache(ExpressionKind::kKeyCondition).Size() +
         UpdateCache().Size() + ProjectionCache().Size();
}

}  // namespace dynarock::expr
