// engine/expr/key_range.h
//
// The one builder of the storage key range a key condition's sort-key term
// selects, for base tables and indexes alike: the keys that start with
// `prefix` (the partition's, and any sort-key attributes fixed by
// equality) and whose next ordered value (engine/keys/key_codec.h)
// satisfies the term. The two layouts differ only in what follows that
// value: nothing in a base item key, the table's key in an index entry key,
// so an inclusive bound must cover those suffixes there.

#ifndef DYNAROCK_ENGINE_EXPR_KEY_RANGE_H_
#define DYNAROCK_ENGINE_EXPR_KEY_RANGE_H_

#include <string>

#include "engine/expr/key_condition.h"
#include "engine/keys/key_codec.h"

namespace dynarock::expr {

// What follows a sort key's value in the keys of the range.
enum class AfterSortKey {
  kNothing,   // a base table's item key ends with it
  kTableKey,  // an index entry key continues with the table's key
};

// The range of `prefix`'s keys whose sort key satisfies `sort`; every key
// of `prefix` when `sort` is null. REQUIRES: `sort`'s values have the sort
// key's type (begins_with: S or B).
KeyRange SortKeyRange(const std::string& prefix, const KeyConditionTerm* sort,
                      AfterSortKey after);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_KEY_RANGE_H_
