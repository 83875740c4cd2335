"""The HTTP surface of `dynarock serve` with raw requests: protocol headers,
protocol-level errors, and inputs no SDK would send."""

import concurrent.futures
import http.client
import json
import random
import socket
import time
import zlib

import pytest

AUTH = ("AWS4-HMAC-SHA256 Credential=RAWKEY/20250101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc")


def post(server, target, body, headers=None, conn=None):
    h = {"Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
         "X-Amz-Date": "20250101T000000Z"}
    if target is not None:
        h["X-Amz-Target"] = target
    h.update(headers or {})
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("POST", "/", body=body, headers=h)
    res = conn.getresponse()
    data = res.read()
    if own:
        conn.close()
    return res, data


def raw(server, data, read_timeout=5.0, half_close=True):
    """Sends bytes; returns all bytes received until the server closes."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=read_timeout) as s:
        try:
            s.sendall(data)
            if half_close:
                s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        return out


def assert_still_serving(server):
    res, data = post(server, "DynamoDB_20120810.ListTables", b"{}")
    assert res.status == 200, data
    assert "TableNames" in json.loads(data)


def test_protocol_headers(server):
    res, data = post(server, "DynamoDB_20120810.ListTables", b"{}")
    assert res.status == 200
    assert res.getheader("Content-Type") == "application/x-amz-json-1.0"
    assert int(res.getheader("x-amz-crc32")) == zlib.crc32(data)
    request_id = res.getheader("x-amzn-RequestId")
    assert request_id and len(request_id) == 52
    assert all(c in "0123456789ABCDEFGHIJKLMNOPQRSTUV" for c in request_id)
    res2, _ = post(server, "DynamoDB_20120810.ListTables", b"{}")
    assert res2.getheader("x-amzn-RequestId") != request_id


def test_json_1_1_body_is_not_an_operation(server):
    # As DynamoDB (dynalite's test/connection.js, recorded against it).
    res, data = post(server, "DynamoDB_20120810.ListTables", b"{}",
                     headers={"Content-Type": "application/x-amz-json-1.1"})
    assert res.status == 404
    assert data == b"<UnknownOperationException/>\n"
    res, data = post(server, "DynamoDB_20120810.ListTables", b"{}",
                     headers={"Content-Type": "application/json"})
    assert res.status == 200
    assert res.getheader("Content-Type") == "application/json"


def test_keep_alive_connection_serves_many_requests(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    for _ in range(50):
        res, data = post(server, "DynamoDB_20120810.ListTables", b"{}", conn=conn)
        assert res.status == 200
        assert not res.will_close
    conn.close()


def test_malformed_json_is_serialization_exception(server):
    for body in (b"{", b"{\"TableName\": }", b"not json", b"\xff\xfe", b"[1, 2"):
        res, data = post(server, "DynamoDB_20120810.DescribeTable", body)
        assert res.status == 400, body
        err = json.loads(data)
        assert err["__type"].endswith("#SerializationException"), (body, err)
        assert int(res.getheader("x-amz-crc32")) == zlib.crc32(data)


def test_deeply_nested_body_is_refused_and_server_survives(server):
    # 200,000 levels of plain objects inside an attribute value (1.2 MB, far
    # under the 16 MB limit) once overflowed a worker's stack and killed the
    # server; it is refused before parsing with DynamoDB's nesting message.
    for open_, close in (('{"a":', "}"), ("[", "]"), ('{"M":{"a":', "}}")):
        levels = 200_000
        body = ('{"TableName":"t","Item":{"x":' + open_ * levels + "1" +
                close * levels + "}}").encode()
        res, data = post(server, "DynamoDB_20120810.PutItem", body)
        assert res.status == 400, data[:200]
        err = json.loads(data)
        assert err["__type"].endswith("#ValidationException"), err
        assert err["message"].startswith("Nesting Levels have exceeded supported limits")
        assert_still_serving(server)


def test_unknown_operation(server):
    res, data = post(server, "DynamoDB_20120810.NoSuchOperation", b"{}")
    assert res.status == 400
    assert json.loads(data)["__type"].endswith("#UnknownOperationException")


@pytest.mark.parametrize("target", [None, "", "ListTables", "DynamoDB_20120810.",
                                    "DynamoDB_20991231.ListTables", "x.y.z"])
def test_missing_or_garbled_target(server, target):
    res, data = post(server, target, b"{}")
    assert res.status == 400
    assert json.loads(data)["__type"].endswith("#UnknownOperationException")


def test_unusable_authorization(server):
    res, data = post(server, "DynamoDB_20120810.ListTables", b"{}",
                     headers={"Authorization": "Basic Zm9vOmJhcg=="})
    assert res.status == 400
    assert json.loads(data)["__type"].endswith("#MissingAuthenticationTokenException")


def test_unsigned_requests_are_accepted(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("POST", "/", body=b"{}", headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    res = conn.getresponse()
    assert res.status == 200
    assert "TableNames" in json.loads(res.read())
    conn.close()


def test_health_check(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/")
    res = conn.getresponse()
    assert res.status == 200
    data = res.read()
    assert data == f"healthy: 127.0.0.1:{server.port} ".encode()
    assert int(res.getheader("x-amz-crc32")) == zlib.crc32(data)
    conn.close()


@pytest.mark.parametrize("method,headers,body", [
    ("PUT", {}, b"{}"), ("DELETE", {}, None), ("PATCH", {}, b"{}"),
    ("OPTIONS", {}, None),  # no Origin: not a preflight
    ("POST", {"Content-Type": "text/plain"}, b"{}"),
    ("POST", {}, b"hi"),  # a body without a Content-Type
])
def test_not_an_operation_is_404(server, method, headers, body):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request(method, "/", body=body, headers=dict(
        headers, **{"X-Amz-Target": "DynamoDB_20120810.ListTables"}))
    res = conn.getresponse()
    data = res.read()
    assert res.status == 404
    assert data == b"<UnknownOperationException/>\n"
    assert res.getheader("x-amz-crc32") == "3552371480"
    conn.close()


def test_browser_cors_preflight_then_call(server):
    """What a browser does before and while an SDK in a web page calls."""
    origin = "http://localhost:3000"
    wanted = ("amz-sdk-invocation-id,amz-sdk-request,authorization,content-type,"
              "x-amz-date,x-amz-target,x-amz-user-agent")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("OPTIONS", "/", headers={
        "Origin": origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": wanted})
    res = conn.getresponse()
    assert res.read() == b""
    assert res.status == 200
    assert res.getheader("Access-Control-Allow-Origin") == "*"
    assert res.getheader("Access-Control-Allow-Methods") == "POST"
    assert res.getheader("Access-Control-Allow-Headers") == wanted
    assert res.getheader("Access-Control-Max-Age") == "172800"
    assert len(res.getheader("x-amzn-RequestId")) == 52
    res, data = post(server, "DynamoDB_20120810.ListTables", b"{}",
                     headers={"Origin": origin}, conn=conn)
    assert res.status == 200, data
    assert res.getheader("Access-Control-Allow-Origin") == "*"
    exposed = res.getheader("Access-Control-Expose-Headers").split(",")
    assert "x-amzn-RequestId" in exposed and "x-amzn-ErrorType" in exposed
    assert res.getheader("Access-Control-Max-Age") is None
    res, data = post(server, "DynamoDB_20120810.NoSuchThing", b"{}",
                     headers={"Origin": origin}, conn=conn)
    assert res.status == 400
    assert res.getheader("Access-Control-Allow-Origin") == "*"
    res, _ = post(server, "DynamoDB_20120810.ListTables", b"{}", conn=conn)
    assert res.getheader("Access-Control-Allow-Origin") is None
    conn.close()


def error_of(res, data):
    assert res.status == 400, data
    err = json.loads(data)
    return err["__type"].split("#")[1], err.get("message", err.get("Message"))


def test_body_that_is_not_json_wins_over_a_bad_target(server):
    res, data = post(server, "DynamoDB_20120810.NoSuchOperation", b"hi")
    assert error_of(res, data) == ("SerializationException", None)
    res, data = post(server, None, b"{\"a\":")
    assert error_of(res, data)[0] == "SerializationException"


@pytest.mark.parametrize("op,body,message", [
    ("DescribeTable", {"TableName": 5}, "NUMBER_VALUE cannot be converted to String"),
    ("DescribeTable", {"TableName": 5.5}, "DECIMAL_VALUE cannot be converted to String"),
    ("DescribeTable", {"TableName": True}, "TRUE_VALUE cannot be converted to String"),
    ("DescribeTable", {"TableName": {"a": 1}},
     "Start of structure or map found where not expected"),
    ("ListTables", {"Limit": "ten"}, "STRING_VALUE cannot be converted to Integer"),
    ("GetItem", {"TableName": "t", "Key": {"k": {"B": "!!!!"}}},
     "Invalid Base64 character: '!'"),
    ("GetItem", {"TableName": "t", "Key": {"k": {"B": "abc"}}},
     "Base64 encoded length is expected a multiple of 4 bytes but found: 3"),
    ("GetItem", {"TableName": "t", "Key": {"k": {"B": True}}},
     "only base-64-encoded strings are convertible to bytes"),
])
def test_serialization_exception_messages(server, op, body, message):
    res, data = post(server, "DynamoDB_20120810." + op, json.dumps(body).encode())
    kind, text = error_of(res, data)
    assert kind == "SerializationException"
    assert text == message


@pytest.mark.parametrize("op,body,message", [
    ("DescribeTable", {}, "The parameter 'TableName' is required but was not present in "
     "the request"),
    ("BatchGetItem", {"RequestItems": {}}, "The requestItems parameter is required for "
     "BatchGetItem"),
    ("Scan", {"TableName": "tbl", "Limit": 0}, "1 validation error detected: Value '0' at "
     "'limit' failed to satisfy constraint: Member must have value greater than or "
     "equal to 1"),
    ("Scan", {"TableName": "tbl", "TotalSegments": 0, "Segment": 0},
     "1 validation error detected: Value '0' at 'totalSegments' failed to satisfy "
     "constraint: Member must have value greater than or equal to 1"),
    ("ListTables", {"Limit": 0, "ExclusiveStartTableName": "a;"},
     "3 validation errors detected: Value 'a;' at 'exclusiveStartTableName' failed to "
     "satisfy constraint: Member must satisfy regular expression pattern: "
     "[a-zA-Z0-9_.-]+; Value 'a;' at 'exclusiveStartTableName' failed to satisfy "
     "constraint: Member must have length greater than or equal to 3; Value '0' at "
     "'limit' failed to satisfy constraint: Member must have value greater than or "
     "equal to 1"),
])
def test_validation_messages(server, op, body, message):
    res, data = post(server, "DynamoDB_20120810." + op, json.dumps(body).encode())
    assert error_of(res, data) == ("ValidationException", message)


def test_body_over_16_mb_is_rejected_with_413(server):
    spaces = b" " * (16 * 1024 * 1024 + 1)
    res, _ = post(server, "DynamoDB_20120810.ListTables", b"{" + spaces + b"}")
    assert res.status == 413
    assert_still_serving(server)


def test_survives_random_bytes(server):
    rng = random.Random(1234)
    for i in range(40):
        data = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 4000)))
        if i % 4 == 0:
            data = b"POST / HTTP/1.1\r\n" + data
        out = raw(server, data)
        assert out == b"" or out.startswith(b"HTTP/1.1 4"), out[:100]
    assert_still_serving(server)


def test_survives_huge_headers(server):
    big = b"X-Big: " + b"a" * (1024 * 1024) + b"\r\n"
    out = raw(server, b"POST / HTTP/1.1\r\nHost: x\r\n" + big + b"\r\n{}")
    assert out.startswith(b"HTTP/1.1 400")
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(20000))
    out = raw(server, b"POST / HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
    assert out.startswith(b"HTTP/1.1 400")
    assert_still_serving(server)


def test_survives_truncated_bodies(server):
    for cut in (0, 1, 10, 30):
        body = b'{"TableName": "truncated-table-name"}'
        head = (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
                b"X-Amz-Target: DynamoDB_20120810.DescribeTable\r\n"
                b"Content-Length: %d\r\n\r\n" % len(body))
        assert raw(server, head + body[:cut]) == b""
    assert_still_serving(server)


def test_survives_bad_chunked_encoding_and_lengths(server):
    for bad in (b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                b"POST / HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
                b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}",
                b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
                b"BREW /pot HTTP/1.1\r\n\r\n",
                b"POST / HTTP/1.1\r\nNo-Colon-Here\r\n\r\n"):
        out = raw(server, bad)
        assert out.startswith(b"HTTP/1.1 4"), (bad, out[:80])
    assert_still_serving(server)


def test_slow_clients_do_not_block_others(server):
    # Several connections that send half a request and stall.
    stalled = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
        stalled.append(s)
    try:
        start = time.monotonic()
        assert_still_serving(server)
        assert time.monotonic() - start < 2.0
    finally:
        for s in stalled:
            s.close()


def test_concurrent_clients(server):
    def work(i):
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        ok = 0
        for _ in range(20):
            res, _ = post(server, "DynamoDB_20120810.ListTables", b"{}", conn=conn)
            ok += res.status == 200
        conn.close()
        return ok

    with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
        assert sum(pool.map(work, range(32))) == 32 * 20


# The operations of DynamoDB's current model that need other AWS services or
# auto scaling: DynamoDB Local does not serve them either.
UNSERVED = {
    "DescribeKinesisStreamingDestination",
    "DescribeTableReplicaAutoScaling", "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "UpdateKinesisStreamingDestination", "UpdateTableReplicaAutoScaling"}


def test_every_operation_of_the_sdk_model_answers(server):
    """Each operation botocore knows (and the newer ones of DynamoDB's
    current model) gets a result or a DynamoDB error, never a 500 or a
    dropped connection. Every one is served except UNSERVED, which answer
    what DynamoDB Local answers: UnknownOperationException, "An unknown
    operation was requested."; a name DynamoDB does not know gets its bare
    UnknownOperationException."""
    import botocore.session
    model = botocore.session.get_session().get_service_model("dynamodb")
    names = set(model.operation_names) | UNSERVED
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    for name in sorted(names):
        res, data = post(server, "DynamoDB_20120810." + name,
                         b'{"TableName": "no-such-table-ops-walk"}', conn=conn)
        assert res.status in (200, 400), (name, res.status, data)
        body = json.loads(data)
        if res.status == 400:
            assert "#" in body["__type"], (name, body)
        if name in UNSERVED:
            assert body == {"__type": "com.amazon.coral.service#UnknownOperationException",
                            "message": "An unknown operation was requested."}, (name, body)
        else:
            assert "UnknownOperationException" not in body.get("__type", ""), (name, body)
    res, data = post(server, "DynamoDB_20120810.Frobnicate", b"{}", conn=conn)
    assert json.loads(data) == {
        "__type": "com.amazon.coral.service#UnknownOperationException"}
    conn.close()
    assert_still_serving(server)


def test_describe_endpoints(ddb):
    endpoints = ddb.describe_endpoints()["Endpoints"]
    assert endpoints == [{"Address": "dynamodb.us-east-1.amazonaws.com",
                          "CachePeriodInMinutes": 1440}]
