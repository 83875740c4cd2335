#!/usr/bin/env bash
# bench/python/example_vs_simulate.sh: wall time of the seed's write-sharding
# experiment (sustained) in Python + SimPy on the in-process engine
# (examples/python/write_sharding.py) against `dynarock simulate
# write-sharding`, for the same inputs, one after the other on this machine.
#
#   bench/python/example_vs_simulate.sh [extra args for both, e.g. --orders 1000000]
#
# Environment: DYNAROCK_BIN (default build/dynarock), PYTHON (default
# python3), PYTHONPATH as needed for `import dynarock`.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${DYNAROCK_BIN:-build/dynarock}"
PYTHON="${PYTHON:-python3}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

t0=$(date +%s.%N)
"$BIN" simulate write-sharding --variants unsharded,random,hash "$@" >"$out/cpp.txt"
t1=$(date +%s.%N)
"$PYTHON" examples/python/write_sharding.py "$@" >"$out/py.txt"
t2=$(date +%s.%N)

echo "== dynarock simulate write-sharding $*"
grep -E '^(variant|unsharded|random|hash) |^simulated N' "$out/cpp.txt"
echo "== examples/python/write_sharding.py $*"
cat "$out/py.txt"
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
  printf "wall: simulate %.1f s, Python + SimPy %.1f s, ratio %.2f\n", b - a, c - b, (c - b) / (b - a) }'
