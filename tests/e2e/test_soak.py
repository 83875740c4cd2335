"""Soak: 1,000 concurrent keep-alive connections and slow clients against one
`dynarock serve`, while a normal client keeps working (issue 17, "Load").

Bounded in time (about 15 s), loopback only. Checks:
- every request of the normal client is answered (200), during the soak too;
- every one of the 1,000 keep-alive connections got its answer and stays
  usable; the slow clients (a byte every 20 ms) do not block anyone;
- memory stays bounded during the soak and comes back near its baseline
  once the connections close.
It prints the normal client's p50/p99 latency with and without the soak
(figures for notes, not assertions: this machine is shared and noisy).

Run: /usr/bin/python3 -m pytest -s tests/e2e/test_soak.py
"""

import resource
import socket
import statistics
import threading
import time

from conftest import unique_name

CONNECTIONS = 1000
SLOW_CLIENTS = 20
NORMAL_REQUESTS = 300

REQUEST = ("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
           "X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
           "Authorization: AWS4-HMAC-SHA256 Credential=AKIDSOAK/20251121/us-east-1/"
           "dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\n"
           "Content-Length: 2\r\n\r\n{}").encode()


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def read_response(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "connection closed before the response"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, "connection closed inside the body"
        body += chunk
    return head.split(b"\r\n")[0]


def latencies(ddb, table, n):
    out = []
    for i in range(n):
        start = time.perf_counter()
        item = ddb.get_item(TableName=table, Key={"pk": {"S": f"k{i % 10}"}})["Item"]
        out.append(time.perf_counter() - start)
        assert item["pk"]["S"] == f"k{i % 10}"
    return out


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def test_thousand_connections_and_slow_clients_do_not_starve_a_normal_client(start_server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = CONNECTIONS + SLOW_CLIENTS + 512
    if soft < want:
        # The server inherits the raised limit too.
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    server = start_server("--in-memory", "--throttling", "off")
    ddb = server.client()
    table = unique_name("soak")
    ddb.create_table(TableName=table, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    ddb.get_waiter("table_exists").wait(TableName=table,
                                        WaiterConfig={"Delay": 0.1, "MaxAttempts": 100})
    for i in range(10):
        ddb.put_item(TableName=table, Item={"pk": {"S": f"k{i}"}, "v": {"S": "x" * 200}})

    latencies(ddb, table, 50)  # warm up
    baseline = latencies(ddb, table, NORMAL_REQUESTS)
    rss_before = rss_kib(server.proc.pid)

    # 1,000 keep-alive connections, each answered once and left open.
    conns = []
    try:
        for _ in range(CONNECTIONS):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            s.sendall(REQUEST)
            conns.append(s)
        for s in conns:
            assert read_response(s) == b"HTTP/1.1 200 OK"

        # Slow clients: a byte every 20 ms, for as long as the normal client runs.
        stop = threading.Event()
        slow_errors = []

        def slow_client():
            try:
                s = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            except OSError as e:
                slow_errors.append(e)
                return
            try:
                i = 0
                while not stop.is_set():
                    s.sendall(REQUEST[i % len(REQUEST):i % len(REQUEST) + 1])
                    i += 1
                    if i % len(REQUEST) == 0:
                        read_response(s)
                    time.sleep(0.02)
            except OSError:
                pass  # dropped by --header-timeout / --request-timeout: allowed
            finally:
                s.close()

        slow = [threading.Thread(target=slow_client) for _ in range(SLOW_CLIENTS)]
        for t in slow:
            t.start()
        try:
            during = latencies(ddb, table, NORMAL_REQUESTS)
            rss_during = rss_kib(server.proc.pid)
        finally:
            stop.set()
            for t in slow:
                t.join(timeout=30)
        assert not slow_errors, slow_errors

        # The keep-alive connections still work after sitting open.
        for s in conns[:: CONNECTIONS // 50]:
            s.sendall(REQUEST)
            assert read_response(s) == b"HTTP/1.1 200 OK"
    finally:
        for s in conns:
            s.close()

    # Memory comes back once the connections are gone (bounded wait for the
    # server to notice the closes).
    rss_after = rss_during
    for _ in range(100):
        latencies(ddb, table, 5)
        rss_after = rss_kib(server.proc.pid)
        if rss_after <= rss_before + 16 * 1024:
            break
        time.sleep(0.05)

    def ms(x):
        return f"{x * 1000:.2f} ms"

    print(f"\nsoak: {CONNECTIONS} keep-alive connections + {SLOW_CLIENTS} slow clients; "
          f"normal client GetItem p50 {ms(statistics.median(during))} vs "
          f"{ms(statistics.median(baseline))} without "
          f"({statistics.median(during) / statistics.median(baseline):.2f}x), "
          f"p99 {ms(quantile(during, 0.99))} vs {ms(quantile(baseline, 0.99))} "
          f"({quantile(during, 0.99) / quantile(baseline, 0.99):.2f}x); "
          f"RSS {rss_before} KiB before, {rss_during} during, {rss_after} after")
    # Bounded: 1,000 idle connections cost well under 64 KiB each.
    assert rss_during - rss_before < CONNECTIONS * 64
    assert rss_after <= rss_before + 16 * 1024, (rss_before, rss_during, rss_after)
