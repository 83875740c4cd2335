#!/usr/bin/env bash
# bench/http/bulk_vs_batch.sh: issue 43's HTTP figure. StartBulkPutItems of
# N items from gzipped DynamoDB JSON in `serve --s3-dir`, against
# BatchWriteItem over HTTP of the same N items (25 a request, CLIENTS
# concurrent connections: batch_write_items.lua), into one `dynarock serve`
# (on disk, default options: throttling on unless THROTTLING=off), each into
# a new on-demand table with the two GSIs of bench/common/two_gsi_table.h
# (byG: g + sk, ALL; byH: h, KEYS_ONLY), alternating which goes first each
# round. The items are the export/import bench's (two_gsi_items.py writes
# them, in i order: consecutive items go to different partition keys).
#
#   bench/http/bulk_vs_batch.sh                  # 20,000 items, 1 round
#   ITEMS=1000000 ROUNDS=2 bench/http/bulk_vs_batch.sh
#   ITEMS=1000000 THROTTLING=off bench/http/bulk_vs_batch.sh
#
# For each, it prints items/s until the load is acknowledged (the bulk job
# COMPLETED, polled every 50 ms; every BatchWriteItem answered with nothing
# left unprocessed) and until both GSIs have caught up too (WaitForIndexes);
# the server's CPU per item (user + system, all threads: the steadier
# measure on a shared machine); what throttling refused (the table's and
# GSIs' WriteThrottleEvents and ThrottledRequests from /metrics; for
# BatchWriteItem also the items sent back as UnprocessedItems and the
# throttled answers, which the client sends again after a backoff); and the
# load average before and after. Ends with bulk / batch per round.
#
# Environment: DYNAROCK (binary; default build/dynarock, else
# build-bench/dynarock), ITEMS (default 20000), CLIENTS (BatchWriteItem
# connections, default 16), ROUNDS (default 1), THROTTLING (on | off),
# MAX_WRU (StartBulkPutItems' MaxWriteRequestUnits, default 1000000000: the
# job is not paced by its own budget, as in export_import_bench; "" leaves
# it out: the STANDARD tier's 10,000 units a second), PORT (default a free
# one), DATA_DIR (where the generated files are kept between runs; default
# $TMPDIR/dynarock-bulk-items-ITEMS), WORK_DIR (the server's database and
# S3 directory; default a new directory under $TMPDIR, removed at the end).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

ITEMS="${ITEMS:-20000}"
CLIENTS="${CLIENTS:-16}"
ROUNDS="${ROUNDS:-1}"
THROTTLING="${THROTTLING:-on}"
MAX_WRU="${MAX_WRU-1000000000}"
DATA_DIR="${DATA_DIR:-${TMPDIR:-/tmp}/dynarock-bulk-items-$ITEMS}"
require_tools wrk curl python3
require_dynarock

work_dir="${WORK_DIR:-}"
own_work_dir=""
if [[ -z "$work_dir" ]]; then
  work_dir=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-bulk-vs-batch.XXXXXX")
  own_work_dir=1
fi
pid=""
cleanup() {
  [[ -n "$pid" ]] && stop "$pid"
  [[ -n "$own_work_dir" ]] && rm -rf "$work_dir"
  return 0
}
trap cleanup EXIT

if [[ ! -f "$DATA_DIR/.complete" ]]; then
  rm -rf "$DATA_DIR"
  echo -n "generating: "
  python3 "$HTTP_DIR/two_gsi_items.py" "$ITEMS" "$DATA_DIR"
  touch "$DATA_DIR/.complete"
fi
# The S3 directory lists regular files only: links, not a symbolic link.
mkdir -p "$work_dir/s3/bucket/data"
cp -l "$DATA_DIR"/part-*.json.gz "$work_dir/s3/bucket/data/" 2>/dev/null ||
  cp "$DATA_DIR"/part-*.json.gz "$work_dir/s3/bucket/data/"
gz_bytes=$(du -cb "$DATA_DIR"/part-*.json.gz | awk 'END {print $1}')

port="${PORT:-$(free_port)}"
"$DYNAROCK" serve --db-path "$work_dir/db" --s3-dir "$work_dir/s3" --port "$port" \
  --throttling "$THROTTLING" >"$work_dir/serve.log" 2>&1 &
pid=$!
wait_ready "$port" "$pid"
echo "dynarock serve (on disk, throttling $THROTTLING) on port $port, pid $pid; $ITEMS items" \
  "($((gz_bytes / 1024)) KiB gzipped, $(ls "$DATA_DIR"/part-*.json.gz | wc -l) objects);" \
  "BatchWriteItem: $CLIENTS connections; MaxWriteRequestUnits ${MAX_WRU:-(none)}"

create_two_gsi_table() {
  create_table_from "$port" "$1" '{"TableName":"'"$1"'","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"},{"AttributeName":"h","AttributeType":"N"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},{"IndexName":"byH","KeySchema":[{"AttributeName":"h","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}'
}

# check_two_gsi_item TABLE I: GetItem of item I finds its payload.
check_two_gsi_item() {
  call "$port" GetItem '{"TableName":"'"$1"'","Key":{"pk":{"S":"user#'"$(($2 % 10007))"'"},"sk":{"N":"'"$2"'"}}}' |
    grep -q '"payload"' || die "item $2 missing from $1"
}

# throttles TABLE: "W R": the table's and its GSIs' WriteThrottleEvents, and
# its ThrottledRequests (all operations), from /metrics.
throttles() {
  curl -s "http://127.0.0.1:$port/metrics" | awk -v t="table=\"$1\"" '
    index($0, t) && /^dynamodb_write_throttle_events_total/ {w += $NF}
    index($0, t) && /^dynamodb_throttled_requests_total/ {r += $NF}
    END {print w + 0, r + 0}'
}

now() { date +%s.%N; }
loadavg() { cut -d' ' -f1 /proc/loadavg; }

# run_bulk TABLE: prints "seconds-to-acknowledged extra-for-notes"
run_bulk() {
  local out arn status d
  local wru=""
  [[ -n "$MAX_WRU" ]] && wru=',"MaxWriteRequestUnits":'"$MAX_WRU"
  out=$(call "$port" StartBulkPutItems '{"TableName":"'"$1"'","InputS3Configuration":{"S3Bucket":"bucket","S3KeyPrefix":"data/","InputFormat":"DYNAMODB_JSON","InputCompressionType":"GZIP"},"OutputS3Configuration":{"S3Bucket":"bucket","S3KeyPrefix":"reports","OutputType":["ERROR"]}'"$wru"'}')
  arn=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["BulkOperationDescription"]["BulkOperationArn"])' "$out") ||
    die "StartBulkPutItems: $out"
  while :; do
    # The request that runs the due work runs the job's step inline (the
    # whole job, with a budget this high), so a poll may wait for it.
    d=$(CALL_MAX_TIME=3600 call "$port" DescribeBulkOperation '{"BulkOperationArn":"'"$arn"'"}')
    status=$(grep -o '"BulkOperationStatus":"[A-Z_]*"' <<<"$d" | cut -d'"' -f4 || true)
    [[ "$status" != IN_PROGRESS && -n "$status" ]] && break
    sleep 0.05
  done
  python3 - "$d" "$ITEMS" <<'PY'
import json, sys
d = json.loads(sys.argv[1])["BulkOperationDescription"]
n = int(sys.argv[2])
if d["BulkOperationStatus"] != "COMPLETED" or d.get("ProcessedItemCount") != n or d.get("FailedItemCount", 0):
    sys.exit(f"bulk job: {json.dumps(d)[:600]}")
PY
}

# run_batch TABLE: BatchWriteItem of every item; prints the lua's summary.
run_batch() {
  local done_file="$work_dir/batch.done" out
  rm -f "$done_file"
  out=$(BENCH_ITEMS="$ITEMS" BENCH_TABLE="$1" BENCH_CLIENTS="$CLIENTS" BENCH_DONE_FILE="$done_file" \
        wrk -t"$CLIENTS" -c"$CLIENTS" -d3600s --timeout 30s \
          -s "$HTTP_DIR/batch_write_items.lua" "http://127.0.0.1:$port/" 2>&1)
  grep -q "batch_write_items: .* $ITEMS items written, .* 0 other answers" <<<"$out" ||
    die "BatchWriteItem load: $out"
  echo "$(sort -n "$done_file" | tail -1) $(grep -o 'batch_write_items: .*' <<<"$out" | head -1)"
}

declare -a bulk_rate batch_rate bulk_all batch_all
for ((r = 1; r <= ROUNDS; r++)); do
  order="bulk batch"
  ((r % 2 == 0)) && order="batch bulk"
  for kind in $order; do
    table="${kind^}$r"
    create_two_gsi_table "$table"
    l0=$(loadavg); c0=$(cpu_ticks "$pid"); t0=$(now)
    note=""
    if [[ $kind == bulk ]]; then
      run_bulk "$table"
      t1=$(now)
    else
      read -r t1 note < <(run_batch "$table")
    fi
    c1=$(cpu_ticks "$pid")
    wait_indexes "$port"
    t2=$(now); c2=$(cpu_ticks "$pid"); l1=$(loadavg)
    check_two_gsi_item "$table" 0
    check_two_gsi_item "$table" $((ITEMS - 1))
    read -r wthr rthr < <(throttles "$table")
    read -r ack all cpu_ack cpu_all < <(python3 -c "
n = $ITEMS; hz = $(getconf CLK_TCK)
print(round(n / ($t1 - $t0)), round(n / ($t2 - $t0)),
      round(($c1 - $c0) * 1e6 / hz / n, 1), round(($c2 - $c0) * 1e6 / hz / n, 1))")
    if [[ $kind == bulk ]]; then
      bulk_rate[r]=$ack; bulk_all[r]=$all
      label=StartBulkPutItems
    else
      batch_rate[r]=$ack; batch_all[r]=$all
      label="BatchWriteItem x$CLIENTS"
    fi
    printf 'round %d: %-18s %8d items/s acknowledged (%.1f s), %8d items/s with the GSIs caught up (%.1f s); server CPU %s / %s us per item; WriteThrottleEvents %s, ThrottledRequests %s; load %s -> %s\n' \
      "$r" "$label" "$ack" "$(python3 -c "print($t1 - $t0)")" "$all" "$(python3 -c "print($t2 - $t0)")" \
      "$cpu_ack" "$cpu_all" "$wthr" "$rthr" "$l0" "$l1"
    [[ -n "$note" ]] && echo "         $note"
  done
  python3 -c "print('round $r: bulk / batch %.2f acknowledged, %.2f with the GSIs' % (${bulk_rate[r]} / ${batch_rate[r]}, ${bulk_all[r]} / ${batch_all[r]}))"
done
