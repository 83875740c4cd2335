// tests/testutil/random_item.h
//
// Random items of every AttributeValue type, for property tests that hold
// two ways of computing one thing together (the encoded item walkers
// against the decoded ones). Deterministic for a given generator state.

#ifndef DYNAROCK_TESTS_TESTUTIL_RANDOM_ITEM_H_
#define DYNAROCK_TESTS_TESTUTIL_RANDOM_ITEM_H_

#include <random>

#include "engine/types.h"

namespace dynarock {

// A value of any type: S and B with empty, ASCII, control, quote,
// backslash, non-ASCII UTF-8 (and, for B, arbitrary) bytes; numbers of
// every shape (zero, negative, 1..38 digits, tiny and huge exponents); sets
// of distinct members; L and M nested up to `depth` more levels.
AttributeValue RandomValue(std::mt19937& rng, int depth = 3);

// An item of 0..`max_attributes` attributes with random names.
Item RandomItem(std::mt19937& rng, int max_attributes = 8);

}  // namespace dynarock

#endif  // DYNAROCK_TESTS_TESTUTIL_RANDOM_ITEM_H_
