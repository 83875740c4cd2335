#!/usr/bin/env bash
# bench/scale/run.sh: issue 45's scale benchmark. For each N given (the
# first is the baseline the others are compared with), on disk, one server
# at a time:
#   1. gen_export.py writes N Order items of 1,024 bytes (bench/http's items
#      plus a pseudo-random Pad) as DynamoDB JSON under the --s3-dir (kept
#      between runs: the same N is not written twice);
#   2. loads them into table Scale (PK, SK, 10 items per PK; GSI1 (Status,
#      OrderDate) and GSI2 (Rep, SK), both INCLUDE Amount, Quantity) with
#      LOAD=bulk (default): CreateTable, then StartBulkPutItems of the files
#      (every item through the write path, unpaced), or LOAD=import:
#      ImportTable (builds the table and both GSIs as SST files and ingests
#      them; it sorts the items in 64 MiB plus run files beside the
#      database); then BATCH_ITEMS more items with BatchWriteItem over
#      HTTP (25 a request, wrk -t1 -c8);
#   3. wrk -t2 -c16 -d$DURATION --latency (bench/http's load) of GetItem,
#      PutItem (overwrites, half moving their GSI entries; the phase ends when
#      the GSIs have caught up), Query (one PK: 10 items, 10 KB) and Query of
#      GSI2 (Limit 10 from a random SK), bench/scale/scale_wrk.lua;
#   4. SIGTERM, restart, time from exec to the first answered GetItem, then
#      RECOVER seconds of GetItem: how long until a second's rate is back to
#      0.9 of the rate before the restart.
# sample.py records every second's requests and p99 (from /metrics) and the
# server's RSS; after the phases, the directory's size, DescribeTable's
# sizes and RocksDB's LOG (write stalls, bytes flushed and compacted).
# report.py prints the table of figures with the ratios to the first N and
# each goal met or not, into OUT/summary.md, and draws OUT/plot-N.svg.
#
#   bench/scale/run.sh 100000 10000000     # the issue's run (34 minutes here)
#   bench/scale/run.sh --smoke             # 2,000 items, 2 s phases: < 60 s
#
# Environment: DYNAROCK (binary; default build-scale/dynarock, else lib.sh's),
# DATA (scratch directory: default /work/scale-data in the issue's run, a
# temporary one with --smoke), LOAD (bulk | import), PORT (default 8451), DURATION (seconds per
# phase, default 30), RECOVER (default 20), BATCH_ITEMS (default: N, at most
# 200,000), SERVE_ARGS (more options for dynarock serve), OUT (default
# DATA/results), KEEP=1 (keep the databases).
set -euo pipefail
SCALE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ -z "${DYNAROCK:-}" && -x "$SCALE_DIR/../../build-scale/dynarock" ]]; then
  DYNAROCK="$(cd "$SCALE_DIR/../../build-scale" && pwd)/dynarock"
fi
source "$SCALE_DIR/../http/lib.sh"
require_tools wrk curl python3
require_dynarock

SMOKE=0
if [[ "${1:-}" == --smoke ]]; then
  SMOKE=1; shift
  set -- 2000
  DURATION="${DURATION:-2}"; RECOVER="${RECOVER:-2}"
  if [[ -z "${DATA:-}" ]]; then DATA=$(mktemp -d "${TMPDIR:-/tmp}/dynarock-scale.XXXXXX"); SMOKE_TMP=$DATA; fi
fi
[[ $# -ge 1 ]] || die "usage: run.sh N [N...] | --smoke"
DATA="${DATA:-/work/scale-data}"
PORT="${PORT:-8451}"
DURATION="${DURATION:-30}"
RECOVER="${RECOVER:-20}"
LOAD="${LOAD:-bulk}"
OUT="${OUT:-$DATA/results}"
export BENCH_TABLE=Scale BENCH_PER_CUSTOMER=10
mkdir -p "$DATA/s3/bucket" "$OUT"

pid=""; sampler=""
cleanup() {
  [[ -n "$sampler" ]] && kill "$sampler" 2>/dev/null
  [[ -n "$pid" ]] && stop "$pid"
  [[ -n "${SMOKE_TMP:-}" ]] && rm -rf "$SMOKE_TMP"
  return 0
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { python3 -c "print(round($(now) - $1, 3))"; }
mib() { du -sm "$1" | cut -f1; }
free_gib() { df -BG --output=avail "$DATA" | tail -1 | tr -dc 0-9; }
check_disk() {
  (( $(free_gib) >= 10 )) || die "less than 10 GB free under $DATA: stopping"
}

start_server() {  # DB_DIR: starts dynarock, sets pid; prints nothing
  # shellcheck disable=SC2086  # SERVE_ARGS: extra words for serve
  "$DYNAROCK" serve --db-path "$1" --s3-dir "$DATA/s3" --throttling off \
    --port "$PORT" ${SERVE_ARGS:-} >>"$RUN_DIR/server.log" 2>&1 &
  pid=$!
}

start_sampler() {
  python3 "$SCALE_DIR/sample.py" "$PORT" "$pid" Scale "$RUN_DIR/phase" "$RUN_DIR/samples.csv" &
  sampler=$!
}
stop_sampler() { kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true; sampler=""; }

# first_answer N T0: seconds from T0 until GetItem of item N-1 answers with it.
first_answer() {
  python3 - "$PORT" "$1" "$2" "$BENCH_ACCESS_KEY" "$BENCH_REGION" <<'PY'
import json, socket, sys, time
port, n, t0, ak, region = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
i = n - 1
body = json.dumps({"TableName": "Scale", "Key": {
    "PK": {"S": "CUST#%08d" % (i // 10)},
    "SK": {"S": "ORDER#2026-%02d-%02d#%08d" % (i % 12 + 1, i % 28 + 1, i)}}}).encode()
req = ("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
       "X-Amz-Target: DynamoDB_20120810.GetItem\r\nX-Amz-Date: 20261121T120000Z\r\n"
       f"Authorization: AWS4-HMAC-SHA256 Credential={ak}/20261121/{region}/dynamodb/aws4_request, "
       "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0123456789abcdef" * 4 +
       f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
while time.time() - t0 < 120:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(req)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        if data.startswith(b"HTTP/1.1 200") and b'"Pad"' in data:
            print(round(time.time() - t0, 3))
            sys.exit(0)
    except OSError:
        pass
    time.sleep(0.002)
sys.exit("no answer within 120 s")
PY
}

# call_slow OPERATION JSON: lib.sh's call with two hours to answer: a bulk job
# moves with the server's due work, which a request may run (a step of the
# job; with an unpaced budget, the whole job) before it answers.
call_slow() {
  curl -sS --max-time 7200 -X POST "http://127.0.0.1:$PORT/" \
    -H "Content-Type: application/x-amz-json-1.0" -H "X-Amz-Target: DynamoDB_20120810.$1" \
    -H "Authorization: AWS4-HMAC-SHA256 Credential=$BENCH_ACCESS_KEY/20261121/$BENCH_REGION/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" \
    --data-binary "$2"
}

describe() { call_slow DescribeTable '{"TableName":"Scale"}'; }
# sizes: "item-count table-bytes index-bytes" from DescribeTable.
sizes() {
  describe | python3 -c '
import json, sys
t = json.load(sys.stdin)["Table"]
print(t["ItemCount"], t["TableSizeBytes"], sum(g["IndexSizeBytes"] for g in t.get("GlobalSecondaryIndexes", [])))'
}

GSIS='{"IndexName":"GSI1","KeySchema":[{"AttributeName":"Status","KeyType":"HASH"},{"AttributeName":"OrderDate","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["Amount","Quantity"]}},{"IndexName":"GSI2","KeySchema":[{"AttributeName":"Rep","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["Amount","Quantity"]}}'
TABLE='{"TableName":"Scale","AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"},{"AttributeName":"Status","AttributeType":"S"},{"AttributeName":"OrderDate","AttributeType":"S"},{"AttributeName":"Rep","AttributeType":"S"}],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST","GlobalSecondaryIndexes":['"$GSIS"']}'

# phase NAME OP ITEMS [SECONDS]: one wrk phase (DURATION seconds unless
# given); appends NAME_rps, NAME_p99_ms, NAME_load to the result.
phase() {
  local out
  echo "$1" >"$RUN_DIR/phase"
  out=$(BENCH_OP=$2 BENCH_ITEMS=$3 wrk -t2 -c16 -d"${4:-$DURATION}s" --timeout 10s --latency \
          -s "$SCALE_DIR/scale_wrk.lua" "http://127.0.0.1:$PORT/")
  echo "$out" >>"$RUN_DIR/wrk.log"
  grep -q "Non-2xx\|[1-9][0-9]* not 200\|[1-9][0-9]* short" <<<"$out" && die "$1: failed answers: $out"
  echo "${1}_rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")" >>"$RESULT"
  echo "${1}_p99_ms=$(sed -n 's/.* p99 \([0-9.]*\) ms.*/\1/p' <<<"$out")" >>"$RESULT"
  echo "${1}_load=$(cut -d' ' -f1 /proc/loadavg)" >>"$RESULT"
  echo "  $1: $(grep scale_wrk <<<"$out"), load $(cut -d' ' -f1 /proc/loadavg)"
}

for N in "$@"; do
  check_disk
  RUN_DIR="$OUT/$N"; RESULT="$RUN_DIR/result.txt"
  rm -rf "$RUN_DIR"; mkdir -p "$RUN_DIR"
  src="$DATA/s3/bucket/scale-$N"
  if [[ ! -f "$src/.complete" ]]; then
    rm -rf "$src"; t0=$(now)
    python3 "$SCALE_DIR/gen_export.py" "$N" "$src" $(( N >= 500000 ? N / 250000 : 2 ))
    touch "$src/.complete"
    echo "generated $N items in $(since "$t0") s"
  fi
  batch=${BATCH_ITEMS:-$(( N < 200000 ? N : 200000 ))}
  echo "items=$N" >"$RESULT"
  echo "source_mib=$(mib "$src")" >>"$RESULT"
  db="$DATA/db-$N"; rm -rf "$db"
  echo "N=$N: $DYNAROCK, data $db, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  start_server "$db"; wait_ready "$PORT" "$pid"; start_sampler
  echo load >"$RUN_DIR/phase"
  t0=$(now)
  if [[ "$LOAD" == import ]]; then
    call "$PORT" ImportTable '{"S3BucketSource":{"S3Bucket":"bucket","S3KeyPrefix":"scale-'"$N"'/"},"InputFormat":"DYNAMODB_JSON","InputCompressionType":"NONE","TableCreationParameters":'"$TABLE"'}' |
      grep -q IN_PROGRESS || die "ImportTable refused"
    until call_slow ListImports '{}' | grep -q '"ImportStatus":"COMPLETED"'; do
      call_slow ListImports '{}' | grep -q '"ImportStatus":"\(FAILED\|CANCELLED\)"' && die "import failed"
      check_disk; sleep 0.2
    done
  else
    call "$PORT" CreateTable "$TABLE" | grep -q TableDescription || die "CreateTable refused"
    until describe | grep -q '"TableStatus":"ACTIVE"'; do sleep 0.05; done
    arn=$(call "$PORT" StartBulkPutItems '{"TableName":"Scale","InputS3Configuration":{"S3Bucket":"bucket","S3KeyPrefix":"scale-'"$N"'/","InputFormat":"DYNAMODB_JSON","InputCompressionType":"NONE"},"OutputS3Configuration":{"S3Bucket":"bucket","S3KeyPrefix":"reports/","OutputType":["ERROR"]},"MaxWriteRequestUnits":1099511627776}' |
          grep -o '"BulkOperationArn":"[^"]*"' | cut -d'"' -f4)
    [[ -n "$arn" ]] || die "StartBulkPutItems refused"
    while :; do
      st=$(call_slow DescribeBulkOperation '{"BulkOperationArn":"'"$arn"'"}')
      grep -q '"BulkOperationStatus":"COMPLETED"' <<<"$st" && break
      grep -q '"BulkOperationStatus":"\(FAILED\|CANCELLED\|COMPLETED_WITH_ERRORS\)"' <<<"$st" && die "bulk put: $st"
      check_disk; sleep 0.5
    done
    wait_indexes "$PORT"
  fi
  import_s=$(since "$t0")
  read -r count tbytes ibytes < <(sizes)
  [[ "$count" == "$N" ]] || die "ItemCount $count after loading $N"
  echo "load_path=$LOAD" >>"$RESULT"
  echo "import_s=$import_s" >>"$RESULT"
  echo "import_items_s=$(python3 -c "print(round($N / $import_s))")" >>"$RESULT"
  echo "  $LOAD: $N items in $import_s s (GSIs caught up)"
  echo batch >"$RUN_DIR/phase"
  t0=$(now)
  out=$(BENCH_OP=batch BENCH_FIRST=$N BENCH_ITEMS=$batch wrk -t1 -c8 -d3600s --timeout 30s \
          -s "$SCALE_DIR/scale_wrk.lua" "http://127.0.0.1:$PORT/")
  wait_indexes "$PORT"
  batch_s=$(since "$t0")
  grep -q " 0 not 200, 0 short" <<<"$out" || die "BatchWriteItem: $out"
  echo "batch_items_s=$(python3 -c "print(round($batch / $batch_s))")" >>"$RESULT"
  echo "  BatchWriteItem over HTTP: $batch items in $batch_s s (GSIs caught up)"
  read -r count tbytes ibytes < <(sizes)
  [[ "$count" == $((N + batch)) ]] || die "ItemCount $count after the batch load"
  echo "rss_loaded_mib=$(( $(vm_kib "$pid" VmRSS) / 1024 ))" >>"$RESULT"
  echo "disk_loaded_mib=$(mib "$db")" >>"$RESULT"

  phase get get "$N"
  phase put put "$N"
  echo put-gsi-wait >"$RUN_DIR/phase"; wait_indexes "$PORT"
  phase query query "$N"
  phase gsiquery gsiquery "$N"
  read -r count tbytes ibytes < <(sizes)
  {
    echo "raw_mib=$(( (tbytes + ibytes) / 1048576 ))"
    echo "disk_mib=$(mib "$db")"
    echo "rss_mib=$(( $(vm_kib "$pid" VmRSS) / 1024 ))"
    echo "hwm_mib=$(( $(vm_kib "$pid" VmHWM) / 1024 ))"
  } >>"$RESULT"
  stop_sampler
  echo restart >"$RUN_DIR/phase"
  t0=$(now); stop "$pid"; echo "stop_s=$(since "$t0")" >>"$RESULT"
  t0=$(now); start_server "$db"
  echo "first_answer_s=$(first_answer "$N" "$t0")" >>"$RESULT"
  start_sampler
  read -r count tbytes ibytes < <(sizes)
  [[ "$count" == $((N + batch)) ]] || die "ItemCount $count after the restart"
  phase recover get "$N" "$RECOVER"
  stop_sampler
  echo "rss_restart_mib=$(( $(vm_kib "$pid" VmRSS) / 1024 ))" >>"$RESULT"
  stop "$pid"; pid=""
  cat "$db"/LOG* >"$RUN_DIR/rocksdb.LOG" 2>/dev/null || true
  [[ "${KEEP:-0}" == 1 ]] || rm -rf "$db"
  grep -h "first_answer\|disk_mib\|raw_mib\|rss_mib" "$RESULT" | tr '\n' ' '; echo
done
python3 "$SCALE_DIR/report.py" "$OUT" "$@"
