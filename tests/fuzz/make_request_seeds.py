#!/usr/bin/env python3
"""Writes tests/fuzz/corpus/request/: recipes for request_fuzz.cc.

A recipe is read one byte per choice (Pick(n) = byte % n, Flip = byte & 1)
and two bytes per size (0xFFFF = the generator's maximum, which is past
DynamoDB's limit; 0xFFFE one less). The first byte picks the operation.
Each operation gets recipes filled with 0xFF (every size at its maximum,
every Flip true), with 0xFF 0xFE pairs, with zeros, and with fixed pseudo-
random bytes; then hand-written recipes reach particular limits exactly.

Run: python3 tests/fuzz/make_request_seeds.py
"""

import random
from pathlib import Path

OUT = Path(__file__).resolve().parent / "corpus" / "request"
OPERATIONS = 11  # BuildRequest's cases before SearchVectors (11, seeded last)


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("seed_*"):
        old.unlink()
    seeds = []
    for op in range(OPERATIONS):
        seeds.append(bytes([op]) + b"\xff" * 64)
        seeds.append(bytes([op]) + b"\xff\xfe" * 32)
        seeds.append(bytes([op]) + b"\x01\x00" * 32)
        for k in range(3):
            rng = random.Random(op * 10 + k)
            seeds.append(bytes([op]) + bytes(rng.randrange(256) for _ in range(48)))
    limit = b"\xff\xff"          # the generator's maximum: past the limit
    # Hand-written (byte by byte, in the decoder's order):
    seeds += [
        # Scan, ScanFilter, 70,000 conditions, form NULL, ConditionalOperator OR.
        bytes([4, 1]) + limit + bytes([2, 1, 1]),
        # Query, KeyConditions + QueryFilter, 70,000 IN conditions, AND.
        bytes([5, 1]) + limit + bytes([3, 1, 0]),
        # PutItem with Expected of 70,000 Exists:false, no ConditionalOperator.
        bytes([0, 0, 0, 0, 0, 0]) + limit + bytes([0, 0]),
        # DeleteItem with Expected of 70,000 Value conditions under OR.
        bytes([2, 0, 0, 1]) + limit + bytes([1, 1, 1]),
        # Scan FilterExpression: 2,100 parentheses around a condition.
        bytes([4, 0, 2]) + limit,
        # Scan FilterExpression: 2,000 NOTs.
        bytes([4, 0, 1]) + limit,
        # Scan FilterExpression: 400 comparisons joined by AND.
        bytes([4, 0, 0]) + limit + bytes([1]),
        # Scan FilterExpression: 700 nested size() calls.
        bytes([4, 0, 5]) + limit,
        # PutItem of raw JSON 100,000 levels deep, balanced.
        bytes([7]) + limit + bytes([1, 1]),
        # PutItem of raw JSON 100,000 levels of objects, unbalanced.
        bytes([7]) + limit + bytes([0, 0]),
        # PutItem: a value 40 levels deep (all maps).
        bytes([9, 0, 0]) + limit + b"\x00\x00" + bytes([8]) + b"\x00" * 40,
        # PutItem: a value 32 levels deep exactly (the deepest allowed), lists.
        bytes([9, 0, 0, 0xFF, 0xF6]) + b"\x00\x00" + bytes([7]) + b"\x01" * 31,
        # UpdateItem: SET through a 40-element path.
        bytes([1, 0, 0, 1, 1]) + limit,
        # UpdateItem: 400 nested if_not_exists.
        bytes([1, 0, 0, 1, 3]) + limit,
        # Query of the multi-attribute GSI, each key condition once.
        *[bytes([10, k, 0, 0]) for k in range(8)],
    ]
    # Operation 11, the vector index (after the others, so that their seeds
    # keep their names): the generic recipes, then by hand: a search and a
    # PutItem with each fixed vector, each TopK (1 .. past 100, 0, -1, 20
    # digits, 1.5), each fixed condition, and a 20,000-member SearchVector.
    op = 11
    seeds.append(bytes([op]) + b"\xff" * 64)
    seeds.append(bytes([op]) + b"\xff\xfe" * 32)
    seeds.append(bytes([op]) + b"\x01\x00" * 32)
    for k in range(3):
        rng = random.Random(op * 10 + k)
        seeds.append(bytes([op]) + bytes(rng.randrange(256) for _ in range(48)))
    seeds += [bytes([op, 1, v, 0, 1, 1, 0]) for v in range(6)]
    seeds += [bytes([op, 1, v, 1, 0, 0]) for v in range(6)]
    seeds += [bytes([op, 1, 0, 0, k, 1, 0]) for k in range(8)]
    seeds += [bytes([op, 1, 0, 0, 1, 1, c, 1, 1]) for c in range(8)]
    seeds.append(bytes([op, 0, 0, 0]) + limit + bytes([1, 0, 0, 1, 0]))
    for i, seed in enumerate(seeds):
        (OUT / f"seed_{i:03d}").write_bytes(seed)
    print(f"{len(seeds)} seeds in {OUT}")


if __name__ == "__main__":
    main()
