#!/usr/bin/env bash
# bench/http/startup_and_memory.sh: how fast `dynarock serve --in-memory`
# answers its first request, and how much memory it holds with 100,000
# Order items; dynalite's startup measured the same way, in the same run.
#
#   bench/http/startup_and_memory.sh        # from the repository root
#
# Startup: time from exec of the server to the first answered ListTables,
# over STARTUP_RUNS runs (default 10), median and min/max in ms. A Python
# client starts the server (subprocess.Popen) and polls in a tight loop:
# connect to 127.0.0.1:PORT, send ListTables, read the answer; a refused
# connection is retried after 0.5 ms (a poller that spins without pausing
# takes a core from the server it is timing, on a 2-core machine). Target:
# < 50 ms.
# Memory: VmRSS and VmHWM from /proc/PID/status after PutItem of
# MEMORY_ITEMS (default 100,000) Order items of 250 bytes over HTTP (wrk,
# bench/http/load_items.lua). Target: VmRSS < 100 MiB.
#
# Environment: DYNAROCK (binary), STARTUP_RUNS, MEMORY_ITEMS.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUNS="${STARTUP_RUNS:-10}"
ITEMS="${MEMORY_ITEMS:-100000}"
require_tools wrk curl python3
require_dynarock
ensure_dynalite

# startup_ms NAME COMMAND...: prints "NAME median min max" in ms. The
# command's {port} is replaced by a free port in each run.
startup_ms() {
  python3 - "$RUNS" "$BENCH_ACCESS_KEY" "$BENCH_REGION" "$@" <<'PY'
import socket, statistics, subprocess, sys, time

runs, access_key, region, name, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
body = b"{}"
request = (
    "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    "Content-Type: application/x-amz-json-1.0\r\n"
    "X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
    "X-Amz-Date: 20261121T120000Z\r\n"
    f"Authorization: AWS4-HMAC-SHA256 Credential={access_key}/20261121/{region}/dynamodb/aws4_request, "
    "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0123456789abcdef" * 4 + "\r\n"
    f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
).encode() + body

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port

def list_tables(port):
    """The response to one ListTables, or None while nobody listens."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(request)
            data = b""
            while b"TableNames" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            return data
    except (ConnectionRefusedError, ConnectionResetError):
        return None

times = []
for _ in range(runs):
    port = free_port()
    cmd = [a.replace("{port}", str(port)) for a in argv]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            answer = list_tables(port)
            if answer is not None:
                break
            if proc.poll() is not None:
                sys.exit(f"{name} exited with {proc.returncode}")
            if time.perf_counter() - t0 > 30:
                sys.exit(f"{name} did not answer within 30 s")
            time.sleep(0.0005)
        elapsed = (time.perf_counter() - t0) * 1000
        if not answer.startswith(b"HTTP/1.1 200") or b"TableNames" not in answer:
            sys.exit(f"{name}: unexpected answer {answer[:200]!r}")
        times.append(elapsed)
    finally:
        proc.terminate()
        proc.wait()
print(f"{name} {statistics.median(times):.1f} {min(times):.1f} {max(times):.1f}")
PY
}

echo "dynarock: $DYNAROCK"
echo "dynalite $(node -p "require('$HTTP_DIR/node_modules/dynalite/package.json').version")"
echo
echo "Startup, exec -> first answered ListTables, $RUNS runs (ms):"
printf "  %-10s %8s %8s %8s\n" server median min max
read -r n med lo hi < <(startup_ms dynarock "$DYNAROCK" serve --in-memory --port '{port}')
dr_startup=$med
printf "  %-10s %8s %8s %8s\n" "$n" "$med" "$lo" "$hi"
read -r n med lo hi < <(startup_ms dynalite node "$HTTP_DIR/node_modules/dynalite/cli.js" --port '{port}')
dl_startup=$med
printf "  %-10s %8s %8s %8s\n" "$n" "$med" "$lo" "$hi"

echo
echo "Memory, dynarock serve --in-memory with $ITEMS Order items of 250 bytes:"
port=$(free_port)
# Throttling off, as run_http_bench.sh serves: 100,000 puts as fast as wrk
# sends them exceed the table's partitions' 1,000 WCU/s.
"$DYNAROCK" serve --in-memory --throttling off --port "$port" >/dev/null 2>&1 &
pid=$!
trap 'stop $pid' EXIT
wait_ready "$port" "$pid"
echo "  VmRSS at start:             $(vm_kib "$pid" VmRSS) KiB"
create_table "$port"
start=$(date +%s.%N)
echo -n "  "; load_items "$port" "$ITEMS"
load_s=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
count=$(call "$port" DescribeTable '{"TableName":"'"$BENCH_TABLE"'"}' | grep -o '"ItemCount":[0-9]*' | cut -d: -f2)
[[ "$count" == "$ITEMS" ]] || die "ItemCount is $count, expected $ITEMS"
check_item "$port" $((ITEMS - 1))
rss=$(vm_kib "$pid" VmRSS)
hwm=$(vm_kib "$pid" VmHWM)
echo "  loaded in $load_s s; DescribeTable ItemCount $count"
echo "  VmRSS after load:           $rss KiB ($((rss / 1024)) MiB)"
echo "  VmHWM (peak RSS):           $hwm KiB ($((hwm / 1024)) MiB)"

echo
python3 - "$dr_startup" "$dl_startup" "$rss" <<'PY'
import sys
dr, dl, rss = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
print(f"startup: dynarock {dr:.1f} ms, dynalite {dl:.1f} ms, dynalite/dynarock {dl / dr:.1f}x"
      f"  (target < 50 ms: {'met' if dr < 50 else 'NOT MET'})")
print(f"memory:  dynarock VmRSS {rss / 1024:.1f} MiB with the items loaded"
      f"  (target < 100 MiB: {'met' if rss < 100 * 1024 else 'NOT MET'})")
PY
