#!/usr/bin/env bash
# bench/http/run_http_bench.sh: PutItem and GetItem over HTTP, dynarock
# against dynalite (the version pinned in package-lock.json), same machine,
# same run, same wrk scripts.
#
#   bench/http/run_http_bench.sh            # from the repository root
#
# Starts `dynarock serve --in-memory` and `dynalite` (in memory) on free
# ports, creates table Orders on each, preloads BENCH_ITEMS Order items
# (250 bytes) into each, then for each round runs, alternating servers,
# wrk -t2 -c16 -d$DURATION with get_item.lua and put_item.lua (random keys
# among the preloaded ones). Prints requests/s (median of the rounds) and
# the ratio dynarock / dynalite; the target is >= 10 for both.
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
"$DYNAROCK" serve --in-memory --port "$dr_port" >/dev/null 2>&1 &
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

declare -A rps
for ((r = 1; r <= ROUNDS; r++)); do
  for op in get put; do
    for server in dynarock dynalite; do
      port=$dr_port; [[ $server == dynalite ]] && port=$dl_port
      v=$(wrk_rps "$port" "${op}_item.lua" "$ITEMS")
      rps[$server.$op]+="$v "
      echo "round $r: $server ${op^}Item $v requests/s"
    done
  done
done

median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo
printf "%-8s %14s %14s %10s %s\n" op dynarock dynalite ratio "(target >= 10)"
for op in get put; do
  a=$(median "${rps[dynarock.$op]}"); b=$(median "${rps[dynalite.$op]}")
  python3 - "$op" "$a" "$b" <<'PY'
import sys
op, a, b = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
r = a / b
print(f"{op.capitalize() + 'Item':<8} {a:14.0f} {b:14.0f} {r:10.1f} {'met' if r >= 10 else 'NOT MET'}")
PY
done
