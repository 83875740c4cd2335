#!/usr/bin/env bash
# bench/http/run_http_bench.sh: issue 18's HTTP workloads, dynarock against
# a no-op request (GET /, which dynarock answers with its health string
# without parsing or touching the engine) and against dynalite (the version
# pinned in package-lock.json), same machine, same run, same wrk.
#
#   bench/http/run_http_bench.sh            # from the repository root
#
# Starts `dynarock serve --throttling off` (in memory, or on disk with
# STORAGE=disk; as DynamoDB Local, since wrk's rate exceeds an on-demand
# partition's and dynarock would throttle as DynamoDB does) and `dynalite`
# (in memory, as the issue's baseline was measured, or on LevelDB on disk
# with DYNALITE_STORAGE=disk: the like-for-like baseline of a disk run) on
# free ports. On each it creates and preloads, with PutItem
# over HTTP:
#   Orders     BENCH_ITEMS Order items (250 bytes), 4 per customer;
#   OrdersQ    QUERY_ITEMS Order items, 100 per customer;
#   OrdersGsi  GSI_ITEMS Order items, with GSI1 (Status, OrderDate) and
#              GSI2 (Rep, SK), both projecting ALL.
# Then, for each round, alternating servers, wrk -t2 -c16 -d$DURATION with
#   get_item.lua / put_item.lua     random keys of Orders (puts overwrite);
#   query_items.lua                 Query of one random customer of OrdersQ:
#                                   100 items, about 25 KB of items;
#   put_item.lua on OrdersGsi       PutItem with two GSIs, half of them
#                                   moving the item's entries (dynarock's
#                                   run ends when its GSIs have caught up:
#                                   WaitForIndexes' time and CPU count);
# and noop.lua (GET /) against dynarock. GetItem's and PutItem's scripts
# also run against noop_server (bench/http/noop_server.cc: dynarock's HTTP
# server with a handler that does nothing): the same requests from the same
# wrk script, bodies read, as a second floor. Prints requests/s (median of
# the rounds) with the issue's ratios: GetItem and PutItem / no-op (target
# >= 0.40), Query / dynalite (>= 10), PutItem with 2 GSIs / dynalite (>= 5),
# and GetItem and PutItem / the same requests answered by noop_server;
# each server's CPU time per request (user + system, all threads, from
# /proc/PID/stat: on a shared machine a server gets only a share of the
# cores, and CPU per request is the steadier measure of its cost); and
# dynarock's resident memory (VmRSS) after the preload and at the end.
#
# Environment: DYNAROCK (binary; default build/dynarock, else
# build-bench/dynarock), NOOP_SERVER (default bench/noop_server beside
# DYNAROCK's build; without it that column is left out), STORAGE (memory |
# disk; default memory), DYNALITE_STORAGE (memory | disk; default memory),
# BENCH_ITEMS (default 20000), QUERY_ITEMS (default 20000), GSI_ITEMS
# (default 20000), DURATION (default 10s), ROUNDS (default 3), OPS (default
# "get put query put2gsi"; gsiquery adds a Query of GSI2 on the two-GSI
# table, without a target), SERVE_ARGS (more options for dynarock serve,
# e.g. "--threads 2"), WRK_LOG (file for wrk's full output).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${BENCH_ITEMS:-20000}"
QUERY_ITEMS="${QUERY_ITEMS:-20000}"
GSI_ITEMS="${GSI_ITEMS:-20000}"
ROUNDS="${ROUNDS:-3}"
STORAGE="${STORAGE:-memory}"
DYNALITE_STORAGE="${DYNALITE_STORAGE:-memory}"
OPS="${OPS:-get put query put2gsi}"
export DURATION="${DURATION:-10s}"
require_tools wrk curl python3
require_dynarock
ensure_dynalite

pids=()
data_dir=""
dl_dir=""
cleanup() {
  local p
  for p in "${pids[@]}"; do stop "$p"; done
  [[ -n "$data_dir" ]] && rm -rf "$data_dir"
  [[ -n "$dl_dir" ]] && rm -rf "$dl_dir"
  return 0
}
trap cleanup EXIT

storage_args=(--in-memory)
case "$STORAGE" in
  memory) ;;
  disk) data_dir=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-http-bench.XXXXXX")
        storage_args=(--db-path "$data_dir") ;;
  *) die "STORAGE must be memory or disk, not $STORAGE" ;;
esac

dr_port=$(free_port)
# shellcheck disable=SC2086  # SERVE_ARGS: extra words for serve
"$DYNAROCK" serve "${storage_args[@]}" --throttling off --port "$dr_port" ${SERVE_ARGS:-} >/dev/null 2>&1 &
dr_pid=$!; pids+=("$dr_pid")
wait_ready "$dr_port" "$dr_pid"

noop_server="${NOOP_SERVER:-$(dirname "$DYNAROCK")/bench/noop_server}"
noop_port=""
if [[ -x "$noop_server" ]]; then
  noop_port=$(free_port)
  # shellcheck disable=SC2086  # SERVE_ARGS' --threads applies to it too
  "$noop_server" "$noop_port" $(sed -n 's/.*--threads[ =]\([0-9]*\).*/\1/p' <<<"${SERVE_ARGS:-}") >/dev/null 2>&1 &
  noop_pid=$!; pids+=("$noop_pid")
  wait_listening "$noop_port" "$noop_pid"
fi

dl_args=()
case "$DYNALITE_STORAGE" in
  memory) ;;
  disk) dl_dir=$(mktemp -d "${TMPDIR:-/tmp}/dynalite-http-bench.XXXXXX")
        dl_args=(--path "$dl_dir") ;;
  *) die "DYNALITE_STORAGE must be memory or disk, not $DYNALITE_STORAGE" ;;
esac
dl_port=$(free_port)
"$DYNALITE" --port "$dl_port" --createTableMs 0 "${dl_args[@]}" >/dev/null 2>&1 &
dl_pid=$!; pids+=("$dl_pid")
wait_ready "$dl_port" "$dl_pid"

echo "dynarock: $DYNAROCK ($STORAGE) on port $dr_port (pid $dr_pid)"
[[ -n "$noop_port" ]] && echo "noop_server: $noop_server on port $noop_port (pid $noop_pid)"
echo "dynalite $(node -p "require('$HTTP_DIR/node_modules/dynalite/package.json').version") ($DYNALITE_STORAGE) on port $dl_port (pid $dl_pid)"
echo "wrk -t2 -c16 -d$DURATION, $ROUNDS round(s); preloaded Order items of 250 bytes:"
echo "  Orders $ITEMS (4 per customer), OrdersQ $QUERY_ITEMS (100 per customer), OrdersGsi $GSI_ITEMS (2 GSIs)"

# query_count PORT CUSTOMER: the Count of a Query of one OrdersQ customer.
query_count() {
  call "$1" Query '{"TableName":"OrdersQ","KeyConditionExpression":"PK = :pk","ExpressionAttributeValues":{":pk":{"S":"'"$(printf 'CUST#%08d' "$2")"'"}}}' |
    grep -o '"Count":[0-9]*' | cut -d: -f2
}

for port in "$dr_port" "$dl_port"; do
  create_table "$port" Orders
  create_table "$port" OrdersQ
  create_table "$port" OrdersGsi two_gsis
  start=$(date +%s.%N)
  echo -n "preload port $port: "
  BENCH_TABLE=Orders load_items "$port" "$ITEMS"
  BENCH_TABLE=Orders check_item "$port" 0
  BENCH_TABLE=Orders check_item "$port" $((ITEMS - 1))
  BENCH_TABLE=OrdersQ BENCH_PER_CUSTOMER=100 load_items "$port" "$QUERY_ITEMS"
  [[ "$(query_count "$port" 0)" == 100 ]] || die "OrdersQ customer 0 on port $port does not have 100 items"
  BENCH_TABLE=OrdersGsi load_items "$port" "$GSI_ITEMS"
  echo "  ($(python3 -c "print(round($(date +%s.%N) - $start, 1))") s)"
done
rss_preload=$(vm_kib "$dr_pid" VmRSS)

label() {
  case "$1" in
    get) echo GetItem ;; put) echo PutItem ;; query) echo "Query(100)" ;; put2gsi) echo "PutItem+2GSI" ;;
    gsiquery) echo "Query(GSI2)" ;;
  esac
}

declare -A rps cpu
for ((r = 1; r <= ROUNDS; r++)); do
  read -r v us < <(wrk_rps "$dr_port" "$dr_pid" noop.lua "$ITEMS")
  rps[dynarock.noop]+="$v "
  cpu[dynarock.noop]+="$us "
  echo "round $r: dynarock no-op (GET /) $v requests/s, $us us server CPU/request"
  for op in $OPS; do
    read -r script table items per versions < <(workload "$op")
    servers="dynarock dynalite"
    [[ -n "$noop_port" && ($op == get || $op == put) ]] && servers+=" noop"
    for server in $servers; do
      port=$dr_port; pid=$dr_pid
      [[ $server == dynalite ]] && port=$dl_port && pid=$dl_pid
      [[ $server == noop ]] && port=$noop_port && pid=$noop_pid
      after=""
      [[ $op == put2gsi && $server == dynarock ]] && after=wait_indexes
      read -r v us < <(BENCH_TABLE=$table BENCH_PER_CUSTOMER=$per BENCH_VERSIONS=$versions wrk_rps "$port" "$pid" "$script" "$items" $after)
      rps[$server.$op]+="$v "
      cpu[$server.$op]+="$us "
      echo "round $r: $server $(label "$op") $v requests/s, $us us server CPU/request"
    done
  done
done
rss_end=$(vm_kib "$dr_pid" VmRSS)

echo "Medians of $ROUNDS round(s), dynarock $STORAGE, dynalite $DYNALITE_STORAGE:"
noop_rps=$(median "${rps[dynarock.noop]}")
noop_cpu=$(median "${cpu[dynarock.noop]}")
echo "no-op (GET / on dynarock): $noop_rps requests/s, $noop_cpu us server CPU/request"
printf "%-13s %10s %7s %10s %7s %-20s %10s %10s %7s %9s\n" workload "dynarock" "/no-op" \
  "dynalite" "/dl" "target" "dr us/req" "dl us/req" "cpu x" "/same-noop"
for op in $OPS; do
  python3 - "$(label "$op")" "$op" "$(median "${rps[dynarock.$op]}")" "$(median "${rps[dynalite.$op]}")" \
    "$(median "${cpu[dynarock.$op]}")" "$(median "${cpu[dynalite.$op]}")" "$noop_rps" \
    "${rps[noop.$op]:+$(median "${rps[noop.$op]}")}" <<'PY'
import sys
label, op = sys.argv[1:3]
a, b, ca, cb, noop = map(float, sys.argv[3:8])
same = f"{a / float(sys.argv[8]):9.2f}" if sys.argv[8] else ""
n, d = a / noop, a / b
# issue 18's targets: a ratio to the no-op for the single-item operations,
# a ratio to dynalite for the others.
if op in ("get", "put"):
    target = f"/no-op>=0.40 {'met' if n >= 0.40 else 'NOT MET'}"
elif op == "gsiquery":
    target = "(none)"
else:
    want = 10 if op == "query" else 5
    target = f"/dl>={want} {'met' if d >= want else 'NOT MET'}"
print(f"{label:<13} {a:10.0f} {n:7.2f} {b:10.0f} {d:7.1f} {target:<20} {ca:10.1f} {cb:10.1f} {cb / ca:7.1f} {same}")
PY
done
echo "(/no-op: requests/s dynarock / dynarock GET /; /dl: dynarock / dynalite;"
echo " us/req: server CPU per request; cpu x: dynalite CPU per request / dynarock's;"
echo " /same-noop: dynarock / noop_server answering the same wrk script's requests)"
echo "dynarock VmRSS: $((rss_preload / 1024)) MiB after the preload, $((rss_end / 1024)) MiB at the end"
