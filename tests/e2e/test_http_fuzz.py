"""HTTP-level fuzzing of a live `dynarock serve`: random and malformed bytes
through real sockets (garbage, broken request lines and headers, wrong
Content-Lengths, bad chunked encodings, pipelining, cut-off requests, deep
and wide JSON, huge numbers and strings, invalid UTF-8), from several
threads for a bounded time. After every round the server must still answer
a real client, and at the end it must stop cleanly (exit 0, no sanitizer
report).

Time: $DYNAROCK_HTTP_FUZZ_SECONDS (default 30). Seed: $DYNAROCK_HTTP_FUZZ_SEED
(default: random, printed, so a failure can be replayed).

Run: /usr/bin/python3 -m pytest -s tests/e2e/test_http_fuzz.py
"""

import json
import os
import random
import socket
import threading
import time

from conftest import create_simple_table, unique_name

SECONDS = float(os.environ.get("DYNAROCK_HTTP_FUZZ_SECONDS", "30"))
THREADS = 4

OPERATIONS = ["PutItem", "GetItem", "UpdateItem", "DeleteItem", "Query", "Scan",
              "BatchWriteItem", "BatchGetItem", "TransactWriteItems",
              "CreateTable", "DescribeTable", "ListTables", "Nope", ""]


class Gen:
    """Builds one fuzz case: the bytes to send, and whether to half-close."""

    def __init__(self, rng, table):
        self.r = rng
        self.table = table

    # --- JSON bodies -------------------------------------------------------

    def deep_json(self):
        depth = self.r.choice([30, 33, 100, 255, 256, 257, 1000, 100000])
        kind = self.r.choice(["av", "array", "object", "unbalanced"])
        if kind == "av":
            inner = '{"N":"1"}'
            for _ in range(depth):
                inner = self.r.choice(['{"L":[%s]}', '{"M":{"m":%s}}']) % inner \
                    if depth < 2000 else inner
            if depth >= 2000:
                inner = '{"L":[' * depth + '{"N":"1"}' + "]}" * depth
            return ('{"TableName":"%s","Item":{"pk":{"S":"k"},"d":%s}}'
                    % (self.table, inner))
        if kind == "array":
            return "[" * depth + "]" * depth
        if kind == "object":
            return '{"a":' * depth + "1" + "}" * depth
        return '{"TableName":"x","Item":' + '{"a":[' * depth

    def wide_json(self):
        n = self.r.choice([100, 1000, 10000, 50000])
        what = self.r.choice(["item", "expected", "filter", "keys", "names"])
        if what == "item":
            item = {"pk": {"S": "w%d" % self.r.randrange(100)}}
            for i in range(n):
                item["a%d" % i] = {"N": str(i)}
            return json.dumps({"TableName": self.table, "Item": item})
        if what == "expected":
            return json.dumps({"TableName": self.table,
                               "Item": {"pk": {"S": "e"}},
                               "ConditionalOperator": self.r.choice(["AND", "OR"]),
                               "Expected": {"a%d" % i: {"Exists": False}
                                            for i in range(n)}})
        if what == "filter":
            return json.dumps({"TableName": self.table,
                               "ScanFilter": {"a%d" % i: {"ComparisonOperator": "NULL"}
                                              for i in range(n)}})
        if what == "keys":
            return json.dumps({"RequestItems": {self.table: {
                "Keys": [{"pk": {"S": str(i)}} for i in range(n)]}}})
        return json.dumps({"TableName": self.table,
                           "FilterExpression": " OR ".join(
                               "#n%d = :v" % i for i in range(min(n, 400))),
                           "ExpressionAttributeNames": {"#n%d" % i: "a" * 300
                                                        for i in range(n)},
                           "ExpressionAttributeValues": {":v": {"N": "1"}}})

    def weird_value(self):
        return self.r.choice([
            {"N": "9" * self.r.choice([38, 39, 100, 10000])},
            {"N": "1e" + str(self.r.choice([125, 126, -130, -131, 99999999999]))},
            {"N": "-0.0000000000000000000000000000000000000001"},
            {"N": "NaN"}, {"N": ""}, {"N": " 1"},
            {"S": "x" * self.r.choice([0, 1, 400 * 1024, 2 * 1024 * 1024])},
            {"B": "!!!not base64"}, {"B": "QQ="}, {"SS": []}, {"SS": ["a", "a"]},
            {"NS": ["1", "1.0"]}, {"BOOL": "yes"}, {"NULL": False},
            {"L": None}, {"M": []}, {"S": 5}, {}, {"S": "a", "N": "1"},
        ])

    def random_json(self, depth=0):
        r = self.r.random()
        if depth > 4 or r < 0.3:
            return self.r.choice([None, True, 0, -1, 1.5e308, "s", "",
                                  "\ud800", 10 ** 40, self.weird_value()])
        if r < 0.65:
            return {self.r.choice(["TableName", "Item", "Key", "S", "N", "L", "M",
                                   "Expected", "UpdateExpression",
                                   "ConditionExpression", "x" * 10]):
                    self.random_json(depth + 1) for _ in range(self.r.randrange(4))}
        return [self.random_json(depth + 1) for _ in range(self.r.randrange(4))]

    def body(self):
        # Large cases (deep, wide) are one in ten, so that many small ones
        # run too.
        choice = [0, 1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 6, 6, 7, 8, 8, 8, 8, 8][
            self.r.randrange(20)]
        if choice == 0:
            return self.deep_json().encode()
        if choice == 1:
            return self.wide_json().encode()
        if choice == 2:
            return json.dumps({"TableName": self.table,
                               "Item": {"pk": {"S": "v"}, "x": self.weird_value()}}
                              ).encode()
        if choice == 3:
            return json.dumps(self.random_json()).encode()
        if choice == 4:  # invalid UTF-8 and control bytes in strings
            junk = self.r.randbytes(self.r.randrange(1, 64))
            return b'{"TableName":"' + junk + b'","Item":{"pk":{"S":"' + junk + b'"}}}'
        if choice == 5:  # random bytes
            return self.r.randbytes(self.r.randrange(200))
        if choice == 6:  # expressions
            expr = self.r.choice([
                "(" * 3000 + "a = :v" + ")" * 3000, "NOT " * 1000 + "a = :v",
                "size(" * 700 + "a" + ")" * 700 + " = :v",
                " AND ".join("a%d = :v" % i for i in range(350)),
                "a" + ".b" * 100 + " = :v", "a" + "[0]" * 100 + " = :v",
                "SET " + ", ".join("a%d = :v" % i for i in range(500)),
                "a IN (" + ",".join([":v"] * 150) + ")", "\x00\xff", ""])
            key = self.r.choice(["ConditionExpression", "FilterExpression",
                                 "UpdateExpression", "ProjectionExpression",
                                 "KeyConditionExpression"])
            return json.dumps({"TableName": self.table, "Key": {"pk": {"S": "k"}},
                               key: expr,
                               "ExpressionAttributeValues": {":v": {"N": "1"}}}
                              ).encode("utf-8", "surrogatepass")
        if choice == 7:
            return b"{}"
        # A valid small write, so that the engine state changes too.
        return json.dumps({"TableName": self.table,
                           "Item": {"pk": {"S": "k%d" % self.r.randrange(50)},
                                    "v": {"N": str(self.r.randrange(1000))}}}).encode()

    # --- HTTP framing ------------------------------------------------------

    def request(self, body=None, op=None):
        body = self.body() if body is None else body
        op = self.r.choice(OPERATIONS) if op is None else op
        headers = [b"POST / HTTP/1.1", b"Host: fuzz",
                   b"X-Amz-Target: DynamoDB_20120810." + op.encode()]
        if self.r.random() < 0.9:
            headers.append(b"Content-Type: application/x-amz-json-1.0")
        if self.r.random() < 0.5:
            headers.append(b"Authorization: AWS4-HMAC-SHA256 Credential=AKIDFUZZ/"
                           b"20250101/us-east-1/dynamodb/aws4_request, "
                           b"SignedHeaders=host, Signature=00")
        framing = self.r.randrange(10)
        if framing == 0:  # chunked, possibly broken
            headers.append(b"Transfer-Encoding: chunked")
            out = b""
            pos = 0
            while pos < len(body):
                n = self.r.randrange(1, 4096)
                piece = body[pos:pos + n]
                size = b"%x" % len(piece)
                if self.r.random() < 0.05:
                    size = self.r.choice([b"zz", b"-1", b"ffffffffffffffff", b""])
                out += size + b"\r\n" + piece + b"\r\n"
                pos += n
            if self.r.random() < 0.8:
                out += b"0\r\n\r\n"
            return b"\r\n".join(headers) + b"\r\n\r\n" + out
        length = len(body)
        if framing == 1:
            length += self.r.choice([-1, 1, 1000, -len(body)])
        if framing == 2:
            headers.append(b"Content-Length: " + self.r.choice(
                [b"-1", b"abc", b"99999999999999999999", b"1, 2", b""]))
        elif framing == 3:
            headers.append(b"Content-Length: %d" % length)
            headers.append(b"Content-Length: %d" % (length + 1))
        else:
            headers.append(b"Content-Length: %d" % max(length, 0))
        if framing == 4:
            headers.append(b"Expect: 100-continue")
        if framing == 5:
            headers.append(b"X-Big: " + b"h" * self.r.choice([1000, 70000, 200000]))
        if framing == 6:
            headers.append(self.r.randbytes(40))
        return b"\r\n".join(headers) + b"\r\n\r\n" + body

    def raw_case(self):
        kind = self.r.randrange(8)
        if kind == 0:  # garbage
            return self.r.randbytes(self.r.randrange(1, 3000))
        if kind == 1:  # broken request lines
            return self.r.choice([
                b"GET\r\n\r\n", b"POST / HTTP/9.9\r\n\r\n", b" / HTTP/1.1\r\n\r\n",
                b"POST " + b"/" * 100000 + b" HTTP/1.1\r\n\r\n",
                b"POST / HTTP/1.1\n\n", b"\r\n\r\n\r\n", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                b"GET / HTTP/1.1\r\nHost: a\r\n\r\n" * 50,
                b"DELETE / HTTP/1.0\r\n\r\n", b"POST / HTTP/1.1\r\nContent-Length: 5\r\n"])
        if kind == 2:  # pipelined requests
            return b"".join(self.request() for _ in range(self.r.randrange(2, 20)))
        if kind == 3:  # a request cut off anywhere
            req = self.request()
            return req[:self.r.randrange(len(req))]
        if kind == 4:  # a request with random bytes flipped
            req = bytearray(self.request())
            for _ in range(self.r.randrange(1, 10)):
                req[self.r.randrange(len(req))] = self.r.randrange(256)
            return bytes(req)
        return self.request()


def fuzz_worker(port, seed, table, deadline, counts, failures):
    rng = random.Random(seed)
    gen = Gen(rng, table)
    while time.monotonic() < deadline:
        data = gen.raw_case()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                # Send in random pieces: partial requests arrive in bits.
                pos = 0
                while pos < len(data):
                    n = rng.choice([1, 7, 1000, len(data)])
                    s.sendall(data[pos:pos + n])
                    pos += n
                if rng.random() < 0.7:
                    s.shutdown(socket.SHUT_WR)
                s.settimeout(rng.choice([0.02, 0.02, 0.2, 1.0]))
                got = 0
                try:
                    while got < 64 * 1024 * 1024:
                        chunk = s.recv(65536)
                        if not chunk:
                            break
                        got += len(chunk)
                except socket.timeout:
                    pass
        except ConnectionRefusedError as e:
            failures.append(f"connection refused: {e!r}")
            return
        except OSError:
            pass  # reset, broken pipe: the server may close on bad input
        counts[0] += 1
        counts[1] += len(data)


def test_http_fuzz_never_takes_the_server_down(start_server):
    seed = int(os.environ.get("DYNAROCK_HTTP_FUZZ_SEED", random.randrange(1 << 30)))
    print(f"\nhttp fuzz seed {seed}, {SECONDS:.0f} s")
    s = start_server("--in-memory", "--threads", "4", "--max-inflight-mb", "64")
    ddb = s.client()
    table = create_simple_table(ddb, unique_name("fuzz"))
    start = time.monotonic()
    end = start + SECONDS
    failures = []
    worker_counts = [[0, 0] for _ in range(THREADS)]
    rounds = 0
    while time.monotonic() < end and not failures:
        round_end = min(end, time.monotonic() + 5)
        threads = [threading.Thread(target=fuzz_worker,
                                    args=(s.port, seed * 1000 + rounds * THREADS + i,
                                          table, round_end, worker_counts[i],
                                          failures))
                   for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rounds += 1
        assert s.proc.poll() is None, "the server died"
        # A real client still gets answers.
        assert table in ddb.list_tables()["TableNames"]
        ddb.put_item(TableName=table, Item={"pk": {"S": "alive"}, "r": {"N": str(rounds)}})
        got = ddb.get_item(TableName=table, Key={"pk": {"S": "alive"}},
                           ConsistentRead=True)["Item"]
        assert got["r"]["N"] == str(rounds)
    assert not failures, failures
    cases = sum(c[0] for c in worker_counts)
    sent = sum(c[1] for c in worker_counts)
    elapsed = time.monotonic() - start
    print(f"http fuzz: {cases} connections, {sent / 1e6:.1f} MB sent in "
          f"{elapsed:.1f} s ({cases / elapsed:.0f}/s), {rounds} liveness checks")
