#!/usr/bin/env bash
# bench/http/ab_bench.sh: two dynarock servers, A and B, side by side on the
# same workloads, their wrk runs alternating, so that the machine's drift
# (other processes on the two shared cores, turbo, page cache) falls on both
# alike. For a change's before and after (two binaries), or for one
# binary under two sets of serve options.
#
#   A_DYNAROCK=/tmp/before B_DYNAROCK=build/dynarock bench/http/ab_bench.sh
#   B_SERVE_ARGS="--threads 4" bench/http/ab_bench.sh
#
# Starts both servers (`dynarock serve --throttling off`, in memory, or each
# in its own temporary directory with STORAGE=disk), creates and preloads on
# each, with PutItem over HTTP, Orders (BENCH_ITEMS Order items, 4 per
# customer), OrdersQ (QUERY_ITEMS, 100 per customer) and OrdersGsi
# (GSI_ITEMS, two GSIs), as run_http_bench.sh does. Then ROUNDS rounds, each
# running every workload of OPS (get put query put2gsi gsiquery noop) on A then B,
# or B then A in even rounds, with wrk -t2 -c16 -d$DURATION and the scripts
# of run_http_bench.sh (put2gsi ends when the GSIs have caught up). Prints
# each run, then per workload the medians of requests/s and of server CPU
# per request (user + system, all threads, /proc/PID/stat) and B / A of
# each medians, and both servers' VmRSS at the end.
#
# Environment: A_DYNAROCK, B_DYNAROCK (binaries; default: DYNAROCK as in
# lib.sh), A_SERVE_ARGS, B_SERVE_ARGS (more options for each serve),
# STORAGE (memory | disk; default memory), BENCH_ITEMS (default 20000),
# QUERY_ITEMS (20000), GSI_ITEMS (20000), OPS (default "get put put2gsi"),
# ROUNDS (default 4), DURATION (default 8s).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${BENCH_ITEMS:-20000}"
QUERY_ITEMS="${QUERY_ITEMS:-20000}"
GSI_ITEMS="${GSI_ITEMS:-20000}"
ROUNDS="${ROUNDS:-4}"
STORAGE="${STORAGE:-memory}"
OPS="${OPS:-get put put2gsi}"
export DURATION="${DURATION:-8s}"
require_tools wrk curl python3
require_dynarock
A_DYNAROCK="${A_DYNAROCK:-$DYNAROCK}"
B_DYNAROCK="${B_DYNAROCK:-$DYNAROCK}"
[[ -x "$A_DYNAROCK" ]] || die "A_DYNAROCK: no binary at $A_DYNAROCK"
[[ -x "$B_DYNAROCK" ]] || die "B_DYNAROCK: no binary at $B_DYNAROCK"
case "$STORAGE" in memory | disk) ;; *) die "STORAGE must be memory or disk, not $STORAGE" ;; esac

declare -A port pid dir
cleanup() {
  local s
  for s in A B; do
    [[ -n "${pid[$s]:-}" ]] && stop "${pid[$s]}"
    [[ -n "${dir[$s]:-}" ]] && rm -rf "${dir[$s]}"
  done
  return 0
}
trap cleanup EXIT

for s in A B; do
  bin_var="${s}_DYNAROCK" args_var="${s}_SERVE_ARGS"
  storage_args=(--in-memory)
  if [[ "$STORAGE" == disk ]]; then
    dir[$s]=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-ab-$s.XXXXXX")
    storage_args=(--db-path "${dir[$s]}")
  fi
  port[$s]=$(free_port)
  # shellcheck disable=SC2086  # *_SERVE_ARGS: extra words for serve
  "${!bin_var}" serve "${storage_args[@]}" --throttling off --port "${port[$s]}" \
    ${!args_var:-} >/dev/null 2>&1 &
  pid[$s]=$!
  wait_ready "${port[$s]}" "${pid[$s]}"
  echo "$s: ${!bin_var} ${!args_var:-} ($STORAGE) on port ${port[$s]} (pid ${pid[$s]})"
  create_table "${port[$s]}" Orders
  create_table "${port[$s]}" OrdersQ
  create_table "${port[$s]}" OrdersGsi two_gsis
  BENCH_TABLE=Orders load_items "${port[$s]}" "$ITEMS" >/dev/null
  BENCH_TABLE=Orders check_item "${port[$s]}" $((ITEMS - 1))
  BENCH_TABLE=OrdersQ BENCH_PER_CUSTOMER=100 load_items "${port[$s]}" "$QUERY_ITEMS" >/dev/null
  BENCH_TABLE=OrdersGsi load_items "${port[$s]}" "$GSI_ITEMS" >/dev/null
done
echo "wrk -t2 -c16 -d$DURATION, $ROUNDS round(s); Orders $ITEMS, OrdersQ $QUERY_ITEMS, OrdersGsi $GSI_ITEMS items"

# run OP SIDE: "requests/s CPU-us-per-request" of one wrk run.
run() {
  local script table items per versions after=""
  read -r script table items per versions < <(workload "$1")
  [[ $1 == put2gsi ]] && after=wait_indexes
  BENCH_TABLE=$table BENCH_PER_CUSTOMER=$per BENCH_VERSIONS=$versions \
    wrk_rps "${port[$2]}" "${pid[$2]}" "$script" "$items" $after  # no word when empty
}

declare -A rps cpu
for ((r = 1; r <= ROUNDS; r++)); do
  order="A B"
  ((r % 2 == 0)) && order="B A"
  for op in $OPS; do
    for s in $order; do
      read -r v us < <(run "$op" "$s")
      rps[$op.$s]+="$v "
      cpu[$op.$s]+="$us "
      echo "round $r: $op $s $v requests/s, $us us server CPU/request"
    done
  done
done

echo "Medians of $ROUNDS round(s), $STORAGE:"
printf "%-9s %10s %10s %7s %10s %10s %7s\n" workload "A req/s" "B req/s" "B/A" "A us/req" "B us/req" "B/A"
for op in $OPS; do
  python3 - "$op" "$(median "${rps[$op.A]}")" "$(median "${rps[$op.B]}")" \
    "$(median "${cpu[$op.A]}")" "$(median "${cpu[$op.B]}")" <<'PY'
import sys
op = sys.argv[1]
ra, rb, ca, cb = map(float, sys.argv[2:6])
print(f"{op:<9} {ra:10.0f} {rb:10.0f} {rb / ra:7.3f} {ca:10.1f} {cb:10.1f} {cb / ca:7.3f}")
PY
done
echo "VmRSS at the end: A $(( $(vm_kib "${pid[A]}" VmRSS) / 1024 )) MiB, B $(( $(vm_kib "${pid[B]}" VmRSS) / 1024 )) MiB"
