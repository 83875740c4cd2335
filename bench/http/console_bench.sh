#!/usr/bin/env bash
# bench/http/console_bench.sh: what the web console and GET /metrics cost
# the request path (issue 42). PutItem requests/s over HTTP (put_item.lua,
# wrk -t2 -c16) against two servers, their runs alternating in each round:
#   neither   dynarock serve --console off --metrics off;
#   watched   the defaults (console and /metrics on), with the console's
#             partition-heat view of the table open in headless Chromium
#             (tests/e2e/console/watch_heat.mjs: it polls DescribeCapacity
#             and DescribeClock once a second) and GET /metrics fetched every
#             second (curl), as Prometheus would, during the run.
# Also prints the page's load time (to the load event, and to the first heat
# cells drawn) and the size of one /metrics scrape with 100 tables.
# Headless Chromium shares the machine's cores with the server and wrk, so
# the server's CPU per request is the cleaner of the two figures.
#
#   bench/http/console_bench.sh          # from the repository root
#
# Environment: DYNAROCK (binary, as lib.sh), BENCH_ITEMS (default 20000),
# ROUNDS (default 3), DURATION (default 10s), TABLES (extra tables created on
# the watched server, default 100), CHROMIUM_BIN (default /usr/bin/chromium).
# Needs `npm ci` in tests/e2e/console (puppeteer-core).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${BENCH_ITEMS:-20000}"
ROUNDS="${ROUNDS:-3}"
TABLES="${TABLES:-100}"
export DURATION="${DURATION:-10s}"
CONSOLE_DIR="$ROOT/tests/e2e/console"
require_tools wrk curl python3 node
require_dynarock
[[ -d "$CONSOLE_DIR/node_modules/puppeteer-core" ]] ||
  die "run npm ci in $CONSOLE_DIR first (puppeteer-core)"

declare -A port pid
scraper=""
watcher=""
cleanup() {
  [[ -n "$scraper" ]] && kill "$scraper" 2>/dev/null
  [[ -n "$watcher" ]] && kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
  local s
  for s in neither watched; do [[ -n "${pid[$s]:-}" ]] && stop "${pid[$s]}"; done
  return 0
}
trap cleanup EXIT

for s in neither watched; do
  port[$s]=$(free_port)
  if [[ $s == neither ]]; then flags=(--console off --metrics off); else flags=(); fi
  "$DYNAROCK" serve --in-memory --throttling off "${flags[@]}" --port "${port[$s]}" \
    >/dev/null 2>&1 &
  pid[$s]=$!
  wait_ready "${port[$s]}" "${pid[$s]}"
  create_table "${port[$s]}" Orders
  BENCH_TABLE=Orders load_items "${port[$s]}" "$ITEMS" >/dev/null
done
for ((t = 0; t < TABLES; t++)); do create_table "${port[watched]}" "Extra$t" >/dev/null; done
size=$(curl -s "http://127.0.0.1:${port[watched]}/metrics" | wc -c)
series=$(curl -s "http://127.0.0.1:${port[watched]}/metrics" | grep -vc '^#')
echo "wrk -t2 -c16 -d$DURATION PutItem, $ROUNDS round(s); /metrics of $((TABLES + 1)) tables: $size bytes, $series samples"

# The page: five loads, then one tab left on the heat view for the runs.
fifo=$(mktemp -u)
mkfifo "$fifo"
(cd "$CONSOLE_DIR" && exec node watch_heat.mjs "http://127.0.0.1:${port[watched]}" Orders 5) >"$fifo" &
watcher=$!
loads=()
drawn=()
while read -r word a b; do
  case "$word" in
    load) loads+=("$a"); drawn+=("$b"); echo "page load: $a ms to the load event, $b ms to the heat cells" ;;
    watching) break ;;
  esac
done <"$fifo"
rm -f "$fifo"
kill -0 "$watcher" 2>/dev/null || die "the console watcher exited"

# run SIDE: "requests/s CPU-us-per-request" of one PutItem run; the watched
# server is also scraped every second while it runs.
run() {
  local server=$1
  if [[ $server == watched ]]; then
    (while true; do curl -s -o /dev/null "http://127.0.0.1:${port[watched]}/metrics"; sleep 1; done) &
    scraper=$!
  fi
  BENCH_TABLE=Orders BENCH_PER_CUSTOMER=4 BENCH_VERSIONS=1 \
    wrk_rps "${port[$server]}" "${pid[$server]}" put_item.lua "$ITEMS"
  if [[ -n "$scraper" ]]; then kill "$scraper" 2>/dev/null; wait "$scraper" 2>/dev/null || true; scraper=""; fi
}

declare -A rps cpu
for ((r = 1; r <= ROUNDS; r++)); do
  order="neither watched"
  ((r % 2 == 0)) && order="watched neither"
  for c in $order; do
    read -r v us < <(run "$c")
    rps[$c]+="$v "
    cpu[$c]+="$us "
    echo "round $r: $c $v requests/s, $us us server CPU/request"
  done
done

python3 - "$(median "${rps[neither]}")" "$(median "${rps[watched]}")" \
  "$(median "${cpu[neither]}")" "$(median "${cpu[watched]}")" \
  "$(median "${loads[*]}")" "$(median "${drawn[*]}")" <<'PY'
import sys
off, on, coff, con, load, drawn = map(float, sys.argv[1:7])
print(f"medians: neither {off:.0f} req/s ({coff:.1f} us/req), watched {on:.0f} ({con:.1f})")
print(f"watched/neither {on / off:.3f} (requests/s), {con / coff:.3f} (server CPU per request)")
print(f"page load (median of 5): {load:.0f} ms to the load event, {drawn:.0f} ms to the first heat cells")
PY
