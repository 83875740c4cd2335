#!/usr/bin/env bash
# bench/http/metrics_bench.sh: what GET /metrics costs the request path
# (issue 42). PutItem requests/s over HTTP (put_item.lua, wrk -t2 -c16) on
# three configurations, their runs alternating in each round:
#   off      dynarock serve --metrics off (no counting, no endpoint);
#   on       --metrics on (every request counted in api::Client::Call),
#            never scraped;
#   scraped  the same server as `on`, with GET /metrics fetched every
#            second (curl) during the run, as Prometheus would.
# Prints each run and the medians, with on/off and scraped/off (goal: within
# noise), and the size of one scrape.
#
#   bench/http/metrics_bench.sh          # from the repository root
#
# Environment: DYNAROCK (binary, as lib.sh), BENCH_ITEMS (default 20000),
# ROUNDS (default 4), DURATION (default 8s), TABLES (extra tables created on
# the `on` server before the runs, so that a scrape has something to read;
# default 100).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${BENCH_ITEMS:-20000}"
ROUNDS="${ROUNDS:-4}"
TABLES="${TABLES:-100}"
export DURATION="${DURATION:-8s}"
require_tools wrk curl python3
require_dynarock

declare -A port pid
scraper=""
cleanup() {
  [[ -n "$scraper" ]] && kill "$scraper" 2>/dev/null
  local s
  for s in off on; do [[ -n "${pid[$s]:-}" ]] && stop "${pid[$s]}"; done
  return 0
}
trap cleanup EXIT

for s in off on; do
  port[$s]=$(free_port)
  "$DYNAROCK" serve --in-memory --throttling off --metrics "$s" --port "${port[$s]}" \
    >/dev/null 2>&1 &
  pid[$s]=$!
  wait_ready "${port[$s]}" "${pid[$s]}"
  create_table "${port[$s]}" Orders
  BENCH_TABLE=Orders load_items "${port[$s]}" "$ITEMS" >/dev/null
done
for ((t = 0; t < TABLES; t++)); do create_table "${port[on]}" "Extra$t" >/dev/null; done
size=$(curl -s "http://127.0.0.1:${port[on]}/metrics" | wc -c)
echo "wrk -t2 -c16 -d$DURATION PutItem, $ROUNDS round(s); /metrics of $((TABLES + 1)) tables: $size bytes"

# run SIDE [scrape]: "requests/s CPU-us-per-request" of one PutItem run.
run() {
  local server=$1
  if [[ "${2:-}" == scrape ]]; then
    (while true; do curl -s -o /dev/null "http://127.0.0.1:${port[on]}/metrics"; sleep 1; done) &
    scraper=$!
  fi
  BENCH_TABLE=Orders BENCH_PER_CUSTOMER=4 BENCH_VERSIONS=1 \
    wrk_rps "${port[$server]}" "${pid[$server]}" put_item.lua "$ITEMS"
  if [[ -n "$scraper" ]]; then kill "$scraper" 2>/dev/null; wait "$scraper" 2>/dev/null || true; scraper=""; fi
}

declare -A rps cpu
for ((r = 1; r <= ROUNDS; r++)); do
  order="off on scraped"
  ((r % 2 == 0)) && order="scraped on off"
  for c in $order; do
    if [[ $c == scraped ]]; then read -r v us < <(run on scrape); else read -r v us < <(run "$c"); fi
    rps[$c]+="$v "
    cpu[$c]+="$us "
    echo "round $r: $c $v requests/s, $us us server CPU/request"
  done
done

python3 - "$(median "${rps[off]}")" "$(median "${rps[on]}")" "$(median "${rps[scraped]}")" \
  "$(median "${cpu[off]}")" "$(median "${cpu[on]}")" "$(median "${cpu[scraped]}")" <<'PY'
import sys
off, on, scraped, coff, con, cscraped = map(float, sys.argv[1:7])
print(f"medians: off {off:.0f} req/s ({coff:.1f} us/req), on {on:.0f} ({con:.1f}), "
      f"scraped {scraped:.0f} ({cscraped:.1f})")
print(f"on/off {on / off:.3f}, scraped/off {scraped / off:.3f} (requests/s); "
      f"CPU per request on/off {con / coff:.3f}, scraped/off {cscraped / coff:.3f}")
PY
