# bench/http/lib.sh: shell helpers shared by run_http_bench.sh, ab_bench.sh,
# profile_server.sh and startup_and_memory.sh. Source it; it defines
# functions and these variables:
#   ROOT      the repository root
#   HTTP_DIR  this directory
#   DYNAROCK  the dynarock binary ($DYNAROCK, else build/dynarock, else
#             build-bench/dynarock)
#   DYNALITE  the pinned dynalite (installed here by ensure_dynalite)

HTTP_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HTTP_DIR/../.." && pwd)"
DYNALITE="$HTTP_DIR/node_modules/.bin/dynalite"
BENCH_ACCESS_KEY="${BENCH_ACCESS_KEY:-AKIDBENCH}"
BENCH_REGION="${BENCH_REGION:-us-east-1}"
BENCH_TABLE="${BENCH_TABLE:-Orders}"
export BENCH_ACCESS_KEY BENCH_REGION BENCH_TABLE

if [[ -z "${DYNAROCK:-}" ]]; then
  for candidate in "$ROOT/build/dynarock" "$ROOT/build-bench/dynarock"; do
    if [[ -x "$candidate" ]]; then DYNAROCK="$candidate"; break; fi
  done
fi

die() { echo "error: $*" >&2; exit 1; }

require_tools() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null || die "$t not found (scripts/setup.sh installs it)"
  done
}

require_dynarock() {
  [[ -n "${DYNAROCK:-}" && -x "$DYNAROCK" ]] ||
    die "no dynarock binary: build it (cmake --build build --target dynarock) or set DYNAROCK"
}

# Installs dynalite at the version pinned by package-lock.json, once.
ensure_dynalite() {
  require_tools node npm
  if [[ ! -x "$DYNALITE" ]]; then
    (cd "$HTTP_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
      die "npm ci failed in $HTTP_DIR"
  fi
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# call PORT OPERATION JSON: one DynamoDB request with the fake SigV4 headers
# the wrk scripts send; prints the response body. Times out after
# CALL_MAX_TIME seconds (default 10).
call() {
  curl -sS --max-time "${CALL_MAX_TIME:-10}" -X POST "http://127.0.0.1:$1/" \
    -H "Content-Type: application/x-amz-json-1.0" \
    -H "X-Amz-Target: DynamoDB_20120810.$2" \
    -H "X-Amz-Date: 20261121T120000Z" \
    -H "Authorization: AWS4-HMAC-SHA256 Credential=$BENCH_ACCESS_KEY/20261121/$BENCH_REGION/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" \
    --data-binary "$3"
}

# wait_ready PORT PID: until ListTables answers (at most 30 s).
wait_ready() {
  local i
  for ((i = 0; i < 3000; i++)); do
    kill -0 "$2" 2>/dev/null || die "server on port $1 exited"
    if call "$1" ListTables '{}' 2>/dev/null | grep -q TableNames; then return 0; fi
    sleep 0.01
  done
  die "server on port $1 not ready after 30 s"
}

# wait_listening PORT PID: until the port answers HTTP at all (at most 30 s).
wait_listening() {
  local i
  for ((i = 0; i < 3000; i++)); do
    kill -0 "$2" 2>/dev/null || die "server on port $1 exited"
    [[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/")" != 000 ]] && return 0
    sleep 0.01
  done
  die "server on port $1 not listening after 30 s"
}

# create_table PORT [TABLE [two_gsis]]: an Order table (PK, SK; default
# $BENCH_TABLE), on demand; with two_gsis, also GSI1 (Status, OrderDate) and
# GSI2 (Rep, SK), both projecting ALL, as the seed documents' overloaded
# GSIs are. Waits for ACTIVE.
create_table() {
  local table="${2:-$BENCH_TABLE}" defs gsis=""
  defs='{"AttributeName":"PK","AttributeType":"S"},{"AttributeName":"SK","AttributeType":"S"}'
  if [[ "${3:-}" == two_gsis ]]; then
    defs+=',{"AttributeName":"Status","AttributeType":"S"},{"AttributeName":"OrderDate","AttributeType":"S"},{"AttributeName":"Rep","AttributeType":"S"}'
    gsis=',"GlobalSecondaryIndexes":[{"IndexName":"GSI1","KeySchema":[{"AttributeName":"Status","KeyType":"HASH"},{"AttributeName":"OrderDate","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}},{"IndexName":"GSI2","KeySchema":[{"AttributeName":"Rep","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]'
  fi
  create_table_from "$1" "$table" '{"TableName":"'"$table"'","AttributeDefinitions":['"$defs"'],"KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},{"AttributeName":"SK","KeyType":"RANGE"}],"BillingMode":"PAY_PER_REQUEST"'"$gsis"'}'
}

# create_table_from PORT TABLE BODY: CreateTable with the request BODY (whose
# TableName is TABLE), then waits for ACTIVE.
create_table_from() {
  local out i
  out=$(call "$1" CreateTable "$3")
  grep -q TableDescription <<<"$out" || die "CreateTable $2 on port $1: $out"
  for ((i = 0; i < 1000; i++)); do
    if call "$1" DescribeTable '{"TableName":"'"$2"'"}' | grep -q '"TableStatus":"ACTIVE"'; then
      return 0
    fi
    sleep 0.02
  done
  die "table $2 on port $1 not ACTIVE after 20 s"
}

# load_items PORT N: PutItem of Order items 0..N-1 with wrk; prints wrk's
# summary line and fails unless every answer was 200.
load_items() {
  local out
  out=$(BENCH_ITEMS="$2" wrk -t1 -c8 -d600s --timeout 10s \
          -s "$HTTP_DIR/load_items.lua" "http://127.0.0.1:$1/")
  grep -q "load_items: .* 0 not 200" <<<"$out" || die "loading port $1: $out"
  grep "load_items:" <<<"$out"
}

# check_item PORT I: GetItem of Order item I finds it.
check_item() {
  local out
  out=$(call "$1" GetItem '{"TableName":"'"$BENCH_TABLE"'","Key":{"PK":{"S":"'"$(printf 'CUST#%08d' $(($2 / ${BENCH_PER_CUSTOMER:-4})))"'"},"SK":{"S":"'"$(printf 'ORDER#2026-%02d-%02d#%08d' $(($2 % 12 + 1)) $(($2 % 28 + 1)) "$2")"'"}}}')
  grep -q '"Note"' <<<"$out" || die "item $2 missing on port $1: $out"
}

# cpu_ticks PID: user + system CPU time of a process, all its threads, in
# clock ticks (getconf CLK_TCK, 100 per second on Linux).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# wait_indexes PORT: dynarock's DynamoRock_20251121.WaitForIndexes, which
# returns once every GSI change committed before it has been applied.
wait_indexes() {
  curl -sS --max-time 600 -X POST "http://127.0.0.1:$1/" \
    -H "Content-Type: application/x-amz-json-1.0" \
    -H "X-Amz-Target: DynamoRock_20251121.WaitForIndexes" \
    -H "Authorization: AWS4-HMAC-SHA256 Credential=$BENCH_ACCESS_KEY/20261121/$BENCH_REGION/dynamodb/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" \
    --data-binary '{}' >/dev/null || die "WaitForIndexes on port $1 failed"
}

# wrk_rps PORT PID SCRIPT ITEMS [AFTER]: runs wrk -t2 -c16 -d$DURATION; prints
# "requests/s server-CPU-microseconds-per-request". AFTER, a command run
# with the port once wrk is done (wait_indexes), is part of the run: its
# time divides the requests too and its CPU is the server's. With
# asynchronous GSIs, that is how a write's index work is charged to it.
wrk_rps() {
  local out t0 t1 rps requests after_s=0 w0
  t0=$(cpu_ticks "$2")
  out=$(BENCH_ITEMS="$4" wrk -t2 -c16 -d"${DURATION:-10s}" --timeout 10s \
          -s "$HTTP_DIR/$3" "http://127.0.0.1:$1/")
  if [[ -n "${5:-}" ]]; then
    w0=$(date +%s.%N)
    "$5" "$1"
    after_s=$(python3 -c "print($(date +%s.%N) - $w0)")
  fi
  t1=$(cpu_ticks "$2")
  if grep -q "Non-2xx" <<<"$out"; then die "non-200 answers from port $1 ($3): $out"; fi
  if grep -q "short answers" <<<"$out"; then die "incomplete answers from port $1 ($3): $out"; fi
  echo "$out" >>"${WRK_LOG:-/dev/null}"
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  python3 -c "print(round($requests / ($requests / $rps + $after_s), 2), round(($t1 - $t0) * 1e6 / $(getconf CLK_TCK) / $requests, 1))"
}

# vm_kib PID FIELD: a /proc/PID/status field (VmRSS, VmHWM) in KiB.
vm_kib() { awk -v f="$2:" '$1 == f {print $2}' "/proc/$1/status"; }

# stop PID: SIGTERM, then wait for it.
stop() {
  if kill -0 "$1" 2>/dev/null; then
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
  fi
}

# workload OP: "script table items per-customer versions" of one of the
# HTTP workloads (get put query put2gsi; gsiquery: Query of GSI2 on the
# two-GSI table; noop: GET /), from the callers' ITEMS, QUERY_ITEMS and
# GSI_ITEMS.
workload() {
  case "$1" in
    get) echo "get_item.lua Orders $ITEMS 4 1" ;;
    put) echo "put_item.lua Orders $ITEMS 4 1" ;;
    query) echo "query_items.lua OrdersQ $QUERY_ITEMS 100 1" ;;
    put2gsi) echo "put_item.lua OrdersGsi $GSI_ITEMS 4 2" ;;
    gsiquery) echo "query_index.lua OrdersGsi $GSI_ITEMS 4 1" ;;
    noop) echo "noop.lua Orders $ITEMS 4 1" ;;
    *) die "unknown workload $1 (get put query put2gsi gsiquery noop)" ;;
  esac
}

# median "X Y Z ...": the median of space-separated numbers.
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
