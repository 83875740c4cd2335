#!/usr/bin/env bash
# bench/http/run_http_bench.sh: PutItem and GetItem over HTTP, dynarock
# against a no-op request (GET /, which dynarock answers with its health
# string without parsing or touching the engine) and against dynalite (the
# version pinned in package-lock.json), same machine, same run, same wrk.
#
#   bench/http/run_http_bench.sh            # from the repository root
#
# Starts `dynarock serve --in-memory --throttling off` (as DynamoDB Local;
# with throttling on, wrk's rate exceeds an on-demand partition's and a few
# PutItems are refused, as DynamoDB would) and `dynalite` (in memory) on
# free ports, creates table Orders on each, preloads BENCH_ITEMS Order items
# (250 bytes) into each, then for each round runs, alternating servers,
# wrk -t2 -c16 -d$DURATION with get_item.lua and put_item.lua (random keys
# among the preloaded ones), and wrk with noop.lua (GET /) against dynarock.
# Prints requests/s (median of the rounds), the ratio dynarock / no-op
# (target >= 0.40) and the ratio dynarock / dynalite. Also prints
# each server's CPU time per request (user + system, all threads, from
# /proc/PID/stat): on a shared machine a server gets only a share of the
# cores, and CPU per request is the steadier measure of its cost.
#
# Environment: DYNAROCK (binary; default build/dynarock, else
# build-bench/dynarock), BENCH_ITEMS (default 20000), DURATION (default
# 10s), ROUNDS (default 3), WRK_LOG (file for wrk's full output).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${BENCH_ITEMS:-20000}"
ROUNDS="${ROUNDS:-3}"
export DURATION="${DURATION:-10s}"
require_tools wrk curl python3
require_dynarock
ensure_dynalite

pids=()
cleanup() { local p; for p in "${pids[@]}"; do stop "$p"; done; }
trap cleanup EXIT

dr_port=$(free_port)
"$DYNAROCK" serve --in-memory --throttling off --port "$dr_port" >/dev/null 2>&1 &
dr_pid=$!; pids+=("$dr_pid")
wait_ready "$dr_port" "$dr_pid"

dl_port=$(free_port)
"$DYNALITE" --port "$dl_port" --createTableMs 0 >/dev/null 2>&1 &
dl_pid=$!; pids+=("$dl_pid")
wait_ready "$dl_port" "$dl_pid"

echo "dynarock: $DYNAROCK on port $dr_port (pid $dr_pid)"
echo "dynalite $(node -p "require('$HTTP_DIR/node_modules/dynalite/package.json').version") on port $dl_port (pid $dl_pid)"
echo "wrk -t2 -c16 -d$DURATION, $ITEMS preloaded Order items of 250 bytes, $ROUNDS round(s)"

for port in "$dr_port" "$dl_port"; do
  create_table "$port"
  start=$(date +%s.%N)
  echo -n "preload port $port: "
  load_items "$port" "$ITEMS"
  check_item "$port" 0
  check_item "$port" $((ITEMS - 1))
  echo "  ($(python3 -c "print(round($(date +%s.%N) - $start, 1))") s)"
done

declare -A rps cpu
for ((r = 1; r <= ROUNDS; r++)); do
  read -r v us < <(wrk_rps "$dr_port" "$dr_pid" noop.lua "$ITEMS")
  rps[dynarock.noop]+="$v "
  cpu[dynarock.noop]+="$us "
  echo "round $r: dynarock no-op (GET /) $v requests/s, $us us server CPU/request"
  for op in get put; do
    for server in dynarock dynalite; do
      port=$dr_port; pid=$dr_pid
      [[ $server == dynalite ]] && port=$dl_port && pid=$dl_pid
      read -r v us < <(wrk_rps "$port" "$pid" "${op}_item.lua" "$ITEMS")
      rps[$server.$op]+="$v "
      cpu[$server.$op]+="$us "
      echo "round $r: $server ${op^}Item $v requests/s, $us us server CPU/request"
    done
  done
done

median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "Medians of $ROUNDS round(s):"
noop_rps=$(median "${rps[dynarock.noop]}")
noop_cpu=$(median "${cpu[dynarock.noop]}")
echo "no-op (GET / on dynarock): $noop_rps requests/s, $noop_cpu us server CPU/request"
printf "%-8s %10s %7s %-9s %10s %7s %10s %10s %7s\n" op "dynarock" "/no-op" "(>= 0.40)" \
  "dynalite" "/dl" "dr us/req" "dl us/req" "cpu x"
for op in get put; do
  python3 - "$op" "$(median "${rps[dynarock.$op]}")" "$(median "${rps[dynalite.$op]}")" \
    "$(median "${cpu[dynarock.$op]}")" "$(median "${cpu[dynalite.$op]}")" "$noop_rps" <<'PY'
import sys
op = sys.argv[1]
a, b, ca, cb, noop = map(float, sys.argv[2:])
n = a / noop
print(f"{op.capitalize() + 'Item':<8} {a:10.0f} {n:7.2f} {'met' if n >= 0.4 else 'NOT MET':<9} "
      f"{b:10.0f} {a / b:7.1f} {ca:10.1f} {cb:10.1f} {cb / ca:7.1f}")
PY
done
echo "(/no-op: requests/s dynarock / dynarock GET / (the target); /dl: dynarock / dynalite;"
echo " us/req: server CPU per request; cpu x: dynalite CPU per request / dynarock's)"
