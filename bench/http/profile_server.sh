#!/usr/bin/env bash
# bench/http/profile_server.sh: where `dynarock serve` spends its CPU under one
# of run_http_bench.sh's workloads: perf's profile of the server process,
# by function (self time), while wrk drives it.
#
#   bench/http/profile_server.sh query      # get | put | query | put2gsi
#
# Starts `dynarock serve --throttling off` (in memory, or on disk in a
# temporary directory with STORAGE=disk), creates and preloads
# the workload's table (20,000 Order items; OrdersQ: 100 per customer;
# OrdersGsi: two GSIs), runs wrk -t2 -c16 for 12 s with the workload's
# script and records `perf record -F 999 --call-graph=dwarf` of the server
# for 10 s of it. Prints wrk's requests/s and the top of
# `perf report --no-children --sort symbol`; the profile stays in
# $PERF_DATA (default /tmp/dynarock-<workload>.perf) for perf report, and
# `perf script -i $PERF_DATA | bench/http/perf_shares.py FUNCTION...` gives
# the share of samples with each function on the stack.
# Environment: DYNAROCK (binary, as run_http_bench.sh), STORAGE (memory |
# disk; default memory), BENCH_ITEMS (the
# preload, default 20000), PERF_DATA, TOP
# (lines of the report, default 30).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OP="${1:-}"
require_tools wrk curl python3 perf
require_dynarock
case "$OP" in
  get) script=get_item.lua table=Orders per=4 versions=1 kind="" ;;
  put) script=put_item.lua table=Orders per=4 versions=1 kind="" ;;
  query) script=query_items.lua table=OrdersQ per=100 versions=1 kind="" ;;
  put2gsi) script=put_item.lua table=OrdersGsi per=4 versions=2 kind=two_gsis ;;
  *) die "usage: $0 get|put|query|put2gsi" ;;
esac
ITEMS="${BENCH_ITEMS:-20000}"
PERF_DATA="${PERF_DATA:-/tmp/dynarock-$OP.perf}"

storage_args=(--in-memory) data_dir=""
case "${STORAGE:-memory}" in
  memory) ;;
  disk) data_dir=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-profile.XXXXXX")
        storage_args=(--db-path "$data_dir") ;;
  *) die "STORAGE must be memory or disk, not $STORAGE" ;;
esac

port=$(free_port)
"$DYNAROCK" serve "${storage_args[@]}" --throttling off --port "$port" >/dev/null 2>&1 &
pid=$!
trap 'stop "$pid"; [[ -z "$data_dir" ]] || rm -rf "$data_dir"' EXIT
wait_ready "$port" "$pid"
create_table "$port" "$table" $kind
BENCH_TABLE=$table BENCH_PER_CUSTOMER=$per load_items "$port" "$ITEMS" >/dev/null

BENCH_ITEMS=$ITEMS BENCH_TABLE=$table BENCH_PER_CUSTOMER=$per BENCH_VERSIONS=$versions \
  wrk -t2 -c16 -d12s -s "$HTTP_DIR/$script" "http://127.0.0.1:$port/" >"$PERF_DATA.wrk" &
wrk_pid=$!
sleep 1
perf record -F 999 --call-graph=dwarf,16384 -p "$pid" -o "$PERF_DATA" -- sleep 10 \
  >/dev/null 2>&1
wait "$wrk_pid"
grep "Requests/sec" "$PERF_DATA.wrk"
perf report -i "$PERF_DATA" --no-children --sort symbol -g none 2>/dev/null |
  grep "%" | sed 's/ \{3,\}/ /g' | head -n "${TOP:-30}"
