#!/usr/bin/env bash
# bench/http/disk_growth.sh: what one on-disk `dynarock serve` does over time
# under the two-GSI PutItem workload: ROUNDS runs of wrk -t2 -c16 -d8s on
# one server, printing after each its requests/s, server CPU per request,
# the database directory's size and the part of it in WAL files. The WAL
# line shows whether RocksDB lets go of WAL files (StoreOptions::max_wal_bytes);
# the CPU line, how the cost per request drifts as the memtables and levels
# fill (why ab_bench.sh alternates its sides).
#
#   bench/http/disk_growth.sh                      # build/dynarock
#   DYNAROCK=/tmp/before ROUNDS=8 bench/http/disk_growth.sh
#
# Environment: DYNAROCK (as lib.sh), GSI_ITEMS (default 20000), ROUNDS
# (default 8).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

GSI_ITEMS="${GSI_ITEMS:-20000}"
ROUNDS="${ROUNDS:-8}"
require_tools wrk curl python3
require_dynarock

dir=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-growth.XXXXXX")
port=$(free_port)
"$DYNAROCK" serve --db-path "$dir" --throttling off --port "$port" >/dev/null 2>&1 &
pid=$!
trap 'stop "$pid"; rm -rf "$dir"' EXIT
wait_ready "$port" "$pid"
create_table "$port" OrdersGsi two_gsis
BENCH_TABLE=OrdersGsi load_items "$port" "$GSI_ITEMS" >/dev/null

mib() { du -sm "$@" 2>/dev/null | awk '{s += $1} END {print s + 0}'; }
start=$(date +%s)
for ((r = 1; r <= ROUNDS; r++)); do
  read -r rps us < <(BENCH_TABLE=OrdersGsi BENCH_VERSIONS=2 \
    DURATION=8s wrk_rps "$port" "$pid" put_item.lua "$GSI_ITEMS")
  echo "round $r ($(( $(date +%s) - start )) s): $rps requests/s, $us us server CPU/request;" \
       "directory $(mib "$dir") MiB, WAL files $(mib "$dir"/*.log) MiB"
done
