#!/usr/bin/env bash
# bench/http/vector_search_bench.sh: issue 39's HTTP figures, in one
# `dynarock serve` (on disk, --throttling off: the loads run faster than an
# on-demand partition's 1,000 units a second, and SearchVectors is not
# throttled anyway):
#
# 1. PutItem of N items (vector_data.lua: pk, vc 128 floats clustered, vu
#    128 floats uniform) into table Vectors, no vector index: items/s.
# 2. Backfills: UpdateTable VectorIndexUpdates Create byC (vc, COSINE), time
#    until ACTIVE, then byU (vu, COSINE): vectors/s of each; the server's
#    resident memory (VmRSS) before and after each: bytes per vector (the
#    raw vector is 128 x 4 = 512 bytes).
# 3. SearchVectors, TopK 10, wrk -t2 -c$CONNECTIONS -d$DURATION, alternating
#    byC and byU each round: requests/s and server CPU per request. The
#    uniform data's graph calibrates to the exact scan (docs/vector-search.md:
#    the graph would need ef 512-1,024, slower than comparing every vector),
#    so byU's searches ARE the brute-force scan of 100,000 vectors over HTTP;
#    byC's go through the graph. The script prints each index's path from
#    one search's VectorSearchRequestBytes (4 x 128 bytes per vector examined,
#    plus the items returned). A scan's cost does not depend on the values,
#    so byU's rate is the baseline for byC's.
# 4. Propagation during puts: PutItem of the same N items into table
#    VectorsIndexed, created with byC, until every write is acknowledged and
#    then until WaitForIndexes returns (the graph inserts done): items/s,
#    against step 1's PutItem rate without the index.
#
#   bench/http/vector_search_bench.sh                # N=20000
#   ITEMS=100000 bench/http/vector_search_bench.sh
#
# Environment: DYNAROCK (binary; default build/dynarock, else
# build-bench/dynarock), ITEMS (default 20000), DURATION (default 10s),
# ROUNDS (default 3), CONNECTIONS (default 8), LOADERS (PutItem
# connections, default 8), PORT (default a free one), STEPS (default
# "load backfill search propagate"; search needs backfill).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${ITEMS:-20000}"
DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-8}"
LOADERS="${LOADERS:-8}"
STEPS="${STEPS:-load backfill search propagate}"
require_tools wrk curl python3
require_dynarock

work_dir=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-vector-bench.XXXXXX")
pid=""
cleanup() {
  [[ -n "$pid" ]] && stop "$pid"
  rm -rf "$work_dir"
  return 0
}
trap cleanup EXIT

port="${PORT:-$(free_port)}"
"$DYNAROCK" serve --db-path "$work_dir/db" --port "$port" --throttling off \
  >"$work_dir/serve.log" 2>&1 &
pid=$!
wait_ready "$port" "$pid"
echo "dynarock serve (on disk, throttling off) on port $port, pid $pid; $ITEMS items of two" \
  "128-dimension vectors; load $(cut -d' ' -f1-3 /proc/loadavg)"

now() { date +%s.%N; }
loadavg() { cut -d' ' -f1 /proc/loadavg; }
rss_mib() { python3 -c "print(round($(vm_kib "$pid" VmRSS) / 1024, 1))"; }
index_json() {
  echo '{"IndexName":"'"$1"'","VectorAttribute":{"AttributeName":"'"$2"'"},"Dimensions":128,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"KEYS_ONLY"}}'
}

create_vector_table() {  # TABLE [VECTOR_INDEX_JSON]
  local vi=""
  [[ -n "${2:-}" ]] && vi=',"VectorIndexes":['"$2"']'
  create_table_from "$port" "$1" '{"TableName":"'"$1"'","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"'"$vi"'}'
}

# load TABLE: PutItem of every item; prints "seconds server-us-per-item".
load() {
  local t0 t1 c0 c1 out
  c0=$(cpu_ticks "$pid"); t0=$(now)
  out=$(BENCH_ITEMS="$ITEMS" BENCH_TABLE="$1" wrk -t1 -c"$LOADERS" -d3600s --timeout 30s \
          -s "$HTTP_DIR/load_vectors.lua" "http://127.0.0.1:$port/" 2>&1)
  t1=$(now); c1=$(cpu_ticks "$pid")
  grep -q "load_vectors: .* 0 not 200" <<<"$out" || die "loading $1: $out"
  python3 -c "print($t1 - $t0 - 0.2, round(($c1 - $c0) * 1e6 / $(getconf CLK_TCK) / $ITEMS, 1))"
}

# index_status TABLE INDEX: its IndexStatus (and Backfilling when true).
index_status() {
  call "$port" DescribeTable '{"TableName":"'"$1"'"}' | python3 -c '
import json, sys
t = json.load(sys.stdin)["Table"]
for v in t.get("VectorIndexes", []):
    if v["IndexName"] == sys.argv[1]:
        print(v["IndexStatus"] + (" backfilling" if v.get("Backfilling") else ""))' "$2"
}

# backfill TABLE INDEX ATTRIBUTE: UpdateTable Create, until ACTIVE.
backfill() {
  local out t0 t1 c0 c1 s
  c0=$(cpu_ticks "$pid"); t0=$(now)
  # UpdateTable waits for the propagator's pass in progress (Propagator::
  # PauseApply): seconds on a loaded machine, so long timeouts here.
  out=$(CALL_MAX_TIME=600 call "$port" UpdateTable '{"TableName":"'"$1"'","VectorIndexUpdates":[{"Create":'"$(index_json "$2" "$3")"'}]}')
  grep -q TableDescription <<<"$out" || die "UpdateTable $1 $2: $out"
  echo "UpdateTable $2 answered in $(python3 -c "print(round($(now) - $t0, 2))") s" >&2
  while :; do
    s=$(CALL_MAX_TIME=600 index_status "$1" "$2")
    [[ "$s" == ACTIVE ]] && break
    [[ "$s" == CREATING* ]] || die "index $2: $s"
    sleep 0.2
  done
  t1=$(now); c1=$(cpu_ticks "$pid")
  python3 -c "print(round($ITEMS / ($t1 - $t0)), round($t1 - $t0, 1), round(($c1 - $c0) * 1e6 / $(getconf CLK_TCK) / $ITEMS, 1))"
}

declare -A rps cpu
if [[ " $STEPS " == *" load "* ]]; then
  create_vector_table Vectors
  l0=$(loadavg)
  read -r s us < <(load Vectors)
  plain_rate=$(python3 -c "print(round($ITEMS / $s))")
  echo "PutItem, no vector index: $plain_rate items/s ($s s), server CPU $us us/item; load $l0 -> $(loadavg)"
fi

if [[ " $STEPS " == *" backfill "* ]]; then
  sleep 2
  r0=$(rss_mib)
  for spec in "byC vc clustered" "byU vu uniform"; do
    read -r index attr data <<<"$spec"
    l0=$(loadavg)
    read -r vps s us < <(backfill Vectors "$index" "$attr")
    sleep 2
    r1=$(rss_mib)
    echo "backfill $index ($data, COSINE): $vps vectors/s ($s s until ACTIVE), server CPU $us us/vector;" \
      "VmRSS $r0 -> $r1 MiB: $(python3 -c "print(round(($r1 - $r0) * 1048576 / $ITEMS))") bytes/vector; load $l0 -> $(loadavg)"
    r0=$r1
  done
fi

if [[ " $STEPS " == *" search "* ]]; then
  for spec in "byC clustered" "byU uniform"; do
    read -r index data <<<"$spec"
    # One search with ReturnConsumedCapacity: a stored item's vector as the
    # query (GetItem of item 0), which shows the path the index takes.
    vec=$(call "$port" GetItem '{"TableName":"Vectors","Key":{"pk":{"S":"v#0000000"}},"ProjectionExpression":"'"$([[ $data == clustered ]] && echo vc || echo vu)"'"}' |
          python3 -c 'import json,sys; i=json.load(sys.stdin)["Item"]; print(json.dumps(list(i.values())[0]["L"]))')
    out=$(call "$port" SearchVectors '{"TableName":"Vectors","IndexName":"'"$index"'","TopK":10,"SearchVector":'"$vec"',"ReturnConsumedCapacity":"TOTAL"}')
    read -r results examined < <(python3 -c '
import json, sys
r = json.loads(sys.argv[1])
b = r["ConsumedCapacity"]["VectorSearchRequestBytes"]
print(len(r["SearchResults"]), int(b) // 512)' "$out") || die "SearchVectors $index: $out"
    echo "SearchVectors $index ($data): $results results, VectorSearchRequestBytes / 512 = $examined vectors examined" \
      "($([[ $examined -ge $ITEMS ]] && echo "the exact scan" || echo "the graph"))"
  done
  for ((r = 1; r <= ROUNDS; r++)); do
    order="byC byU"
    ((r % 2 == 0)) && order="byU byC"
    for index in $order; do
      data=clustered; [[ $index == byU ]] && data=uniform
      l0=$(loadavg)
      c0=$(cpu_ticks "$pid")
      out=$(BENCH_TABLE=Vectors BENCH_INDEX=$index BENCH_DATA=$data BENCH_ITEMS="$ITEMS" \
            wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --timeout 30s \
              -s "$HTTP_DIR/search_vectors.lua" "http://127.0.0.1:$port/" 2>&1)
      c1=$(cpu_ticks "$pid")
      grep -q "search_vectors: .* 0 not 200, 0 short" <<<"$out" || die "SearchVectors $index: $out"
      v=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
      n=$(awk '/requests in/ {print $1}' <<<"$out")
      us=$(python3 -c "print(round(($c1 - $c0) * 1e6 / $(getconf CLK_TCK) / $n))")
      rps[$index]+="$v "; cpu[$index]+="$us "
      echo "round $r: SearchVectors $index ($data) $v requests/s, server CPU $us us/request;" \
        "latency $(awk '/Latency/ {print $2}' <<<"$out") avg; load $l0 -> $(loadavg)"
    done
  done
  python3 -c "print('medians: byC (graph) %s requests/s, %s us CPU; byU (exact scan) %s requests/s, %s us CPU; graph / scan x%.2f requests/s, x%.2f CPU per request' % ($(median "${rps[byC]}"), $(median "${cpu[byC]}"), $(median "${rps[byU]}"), $(median "${cpu[byU]}"), $(median "${rps[byC]}") / $(median "${rps[byU]}"), $(median "${cpu[byU]}") / $(median "${cpu[byC]}")))"
fi

if [[ " $STEPS " == *" propagate "* ]]; then
  create_vector_table VectorsIndexed "$(index_json byC vc)"
  l0=$(loadavg)
  c0=$(cpu_ticks "$pid"); t0=$(now)
  read -r s us < <(load VectorsIndexed)
  wait_indexes "$port"
  t2=$(now); c2=$(cpu_ticks "$pid")
  python3 -c "
n = $ITEMS
total = $t2 - $t0
print('PutItem with byC (clustered, COSINE): %d items/s acknowledged (%.1f s), %d vectors/s with the index caught up (%.1f s), server CPU %.0f us/item' % (n / $s, $s, n / total, total, ($c2 - $c0) * 1e6 / $(getconf CLK_TCK) / n))
if '${plain_rate:-}':
    print('  against PutItem without the index: %d items/s; x%.2f acknowledged, x%.2f caught up' % (${plain_rate:-0}, ${plain_rate:-0} / (n / $s), ${plain_rate:-0} / (n / total)))
"
  echo "  load $l0 -> $(loadavg); VmRSS $(rss_mib) MiB"
fi
