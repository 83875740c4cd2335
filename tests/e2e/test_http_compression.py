"""Compressed requests and responses over real HTTP, as DynamoDB serves
them: Content-Encoding gzip / deflate request bodies (boto3's request
compression, and raw bodies no SDK would send), Accept-Encoding responses,
and the HTTP details around them (Date, chunked answers, header limits,
the health check)."""

import gzip
import http.client
import json
import socket
import zlib
from email.utils import parsedate_to_datetime

import boto3
import botocore
import pytest
from botocore.config import Config

from conftest import DynarockServer, REGION, create_simple_table, unique_name

AUTH = ("AWS4-HMAC-SHA256 Credential=GZKEY/20250101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc")


def post(server, target, body, headers=None, path="/"):
    h = {"Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
         "X-Amz-Date": "20250101T000000Z", "X-Amz-Target": "DynamoDB_20120810." + target}
    h.update(headers or {})
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request("POST", path, body=body, headers=h)
    res = conn.getresponse()
    data = res.read()
    conn.close()
    return res, data


def raw_client(server):
    """boto3 client whose credentials match AUTH's key (same table namespace)."""
    return boto3.client("dynamodb", endpoint_url=server.url, region_name=REGION,
                        aws_access_key_id="GZKEY", aws_secret_access_key="x",
                        config=Config(retries={"max_attempts": 1}))


@pytest.fixture(scope="module")
def gz_table(server):
    return create_simple_table(raw_client(server), unique_name("gz"))


def put(table, pk, value="v"):
    return json.dumps({"TableName": table,
                       "Item": {"pk": {"S": pk}, "v": {"S": value}}}).encode()


def stored(server, table, pk):
    return raw_client(server).get_item(TableName=table, Key={"pk": {"S": pk}},
                                       ConsistentRead=True).get("Item")


def compress_requests(client):
    """Makes boto3 gzip every request body before it is signed, as the SDKs'
    request compression does (botocore's own needs a newer botocore than
    Debian's, and its service model enables it for no DynamoDB operation)."""
    def compress(request, **_):
        body = request.data if isinstance(request.data, bytes) else request.data.encode()
        request.data = gzip.compress(body)
        request.headers["Content-Encoding"] = "gzip"
    client.meta.events.register_first("before-sign.dynamodb", compress)
    return client


def compressing_client(server):
    return compress_requests(raw_client(server))


def test_boto3_compressed_requests(server, gz_table):
    c = compressing_client(server)
    sent = []
    c.meta.events.register("before-send", lambda request, **_: sent.append(
        request.headers.get("Content-Encoding")))
    long_value = "x" * 100000 + "end"
    c.put_item(TableName=gz_table, Item={"pk": {"S": "b1"}, "v": {"S": long_value}})
    got = c.get_item(TableName=gz_table, Key={"pk": {"S": "b1"}}, ConsistentRead=True)
    assert got["Item"]["v"]["S"] == long_value
    assert sent == [b"gzip", b"gzip"] or sent == ["gzip", "gzip"]


@pytest.mark.parametrize("encoding,compress", [
    ("gzip", gzip.compress), ("deflate", zlib.compress), ("GZIP", gzip.compress)])
def test_raw_compressed_put(server, gz_table, encoding, compress):
    pk = unique_name("raw")
    res, data = post(server, "PutItem", compress(put(gz_table, pk)),
                     {"Content-Encoding": encoding})
    assert res.status == 200, data
    assert stored(server, gz_table, pk) == {"pk": {"S": pk}, "v": {"S": "v"}}


def test_concatenated_gzip_members(server, gz_table):
    pk = unique_name("two")
    body = put(gz_table, pk)
    res, data = post(server, "PutItem", gzip.compress(body[:10]) + gzip.compress(body[10:]),
                     {"Content-Encoding": "gzip"})
    assert res.status == 200, data
    assert stored(server, gz_table, pk) is not None


def test_junk_after_gzip_is_ignored_as_dynamodb_does(server, gz_table):
    pk = unique_name("junk")
    res, data = post(server, "PutItem", gzip.compress(put(gz_table, pk)) + b"junk",
                     {"Content-Encoding": "gzip"})
    assert res.status == 200, data


@pytest.mark.parametrize("encoding,body", [
    ("garbage", None),              # unknown coding
    ("gzip", None),                 # plain JSON said to be gzip
    ("deflate", None),              # plain JSON said to be deflate
    ("gzip", b""),                  # empty is not gzip
    ("deflate", b""),
    ("gzip", "truncated"),
])
def test_undecodable_bodies_are_500_and_change_nothing(server, gz_table, encoding, body):
    pk = unique_name("bad")
    if body is None:
        body = put(gz_table, pk)
    elif body == "truncated":
        body = gzip.compress(put(gz_table, pk))[:-1]
    res, data = post(server, "PutItem", body, {"Content-Encoding": encoding})
    assert res.status == 500, data
    assert json.loads(data)["__type"].endswith("#InternalServerError")
    assert stored(server, gz_table, pk) is None


def test_gzip_bomb_is_413_and_server_survives(server, gz_table):
    pk = unique_name("bomb")
    body = put(gz_table, pk)
    bomb = gzip.compress(body[:-1] + b" " * (20 * 1024 * 1024) + body[-1:])
    assert len(bomb) < 100_000
    res, _ = post(server, "PutItem", bomb, {"Content-Encoding": "gzip"})
    assert res.status == 413
    assert stored(server, gz_table, pk) is None
    # Just under the limit decodes.
    body = put(gz_table, pk)
    fits = gzip.compress(body[:-1] + b" " * (16 * 1024 * 1024 - len(body) - 1) + body[-1:])
    res, data = post(server, "PutItem", fits, {"Content-Encoding": "gzip"})
    assert res.status == 200, data


def test_signature_covers_the_compressed_body(start_server):
    strict = start_server("--in-memory", "--access-key", "SKEY", "--secret-key", "ssecret")
    c = compress_requests(boto3.client(
        "dynamodb", endpoint_url=strict.url, region_name=REGION,
        aws_access_key_id="SKEY", aws_secret_access_key="ssecret",
        config=Config(retries={"max_attempts": 1})))
    name = create_simple_table(c, "signed-gz")
    c.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"S": "y" * 20000}})
    assert c.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["v"]["S"] == "y" * 20000
    # The same JSON compressed otherwise (another gzip header time) after
    # signing: the signature is of the bytes sent, so it fails.
    wrong = compress_requests(boto3.client(
        "dynamodb", endpoint_url=strict.url, region_name=REGION,
        aws_access_key_id="SKEY", aws_secret_access_key="ssecret",
        config=Config(retries={"max_attempts": 1})))

    def restamp(request, **_):
        body = bytearray(request.body)
        body[4:8] = b"\x01\x02\x03\x04"
        request.body = bytes(body)
    wrong.meta.events.register("before-send", restamp)
    with pytest.raises(botocore.exceptions.ClientError) as e:
        wrong.describe_table(TableName=name)
    assert e.value.response["Error"]["Code"] == "InvalidSignatureException"


# --- Compressed responses -------------------------------------------------

def get_raw(server, table, pk, accept_encoding):
    headers = {} if accept_encoding is None else {"Accept-Encoding": accept_encoding}
    return post(server, "GetItem", json.dumps(
        {"TableName": table, "Key": {"pk": {"S": pk}}}).encode(), headers)


@pytest.mark.parametrize("encoding,decompress", [
    ("gzip", gzip.decompress), ("deflate", zlib.decompress)])
def test_large_responses_are_compressed_when_accepted(server, gz_table, encoding, decompress):
    pk = unique_name("resp")
    raw_client(server).put_item(TableName=gz_table,
                                Item={"pk": {"S": pk}, "v": {"S": "x" * 6000}})
    res, data = get_raw(server, gz_table, pk, encoding)
    assert res.status == 200
    assert res.getheader("Content-Encoding") == encoding
    # x-amz-crc32 is of the bytes sent, as DynamoDB's (SDKs check it first).
    assert int(res.getheader("x-amz-crc32")) == zlib.crc32(data)
    item = json.loads(decompress(data))["Item"]
    assert item["v"]["S"] == "x" * 6000
    assert len(data) * 30 < 6000
    # Without Accept-Encoding (or with identity), as is.
    for accept in (None, "identity", "br"):
        res, data = get_raw(server, gz_table, pk, accept)
        assert res.getheader("Content-Encoding") is None
        assert json.loads(data)["Item"]["v"]["S"] == "x" * 6000


def test_small_responses_are_not_compressed(server, gz_table):
    pk = unique_name("small")
    raw_client(server).put_item(TableName=gz_table, Item={"pk": {"S": pk}})
    res, data = get_raw(server, gz_table, pk, "gzip, deflate")
    assert res.getheader("Content-Encoding") is None
    assert json.loads(data)["Item"] == {"pk": {"S": pk}}


def test_huge_responses_are_chunked(server, gz_table):
    pk = unique_name("huge")
    value = "".join(chr(65 + (i * 7919) % 26) for i in range(300_000))
    raw_client(server).put_item(TableName=gz_table,
                                Item={"pk": {"S": pk}, "v": {"S": value}})
    for accept, decompress in ((None, lambda d: d), ("gzip", gzip.decompress)):
        res, data = get_raw(server, gz_table, pk, accept)
        assert res.getheader("Transfer-Encoding") == "chunked"
        assert res.getheader("Content-Length") is None
        assert json.loads(decompress(data))["Item"]["v"]["S"] == value


def test_several_accept_encoding_headers_are_one_list(server, gz_table):
    pk = unique_name("multi")
    raw_client(server).put_item(TableName=gz_table,
                                Item={"pk": {"S": pk}, "v": {"S": "z" * 5000}})
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.putrequest("POST", "/", skip_accept_encoding=True)
    body = json.dumps({"TableName": gz_table, "Key": {"pk": {"S": pk}}}).encode()
    for name, value in (("Content-Type", "application/x-amz-json-1.0"),
                        ("X-Amz-Target", "DynamoDB_20120810.GetItem"),
                        ("Authorization", AUTH), ("Content-Length", str(len(body))),
                        ("Accept-Encoding", "identity"), ("Accept-Encoding", "gzip")):
        conn.putheader(name, value)
    conn.endheaders(body)
    res = conn.getresponse()
    data = res.read()
    conn.close()
    assert res.getheader("Content-Encoding") == "gzip"
    assert json.loads(gzip.decompress(data))["Item"]["v"]["S"] == "z" * 5000


# --- HTTP details -----------------------------------------------------------

def test_every_response_has_a_date(server):
    res, _ = post(server, "ListTables", b"{}")
    assert parsedate_to_datetime(res.getheader("Date")).tzname() == "UTC"
    res, _ = post(server, "DescribeTable", b'{"TableName": "no-such-table"}')
    assert res.status == 400 and res.getheader("Date")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/")
    assert conn.getresponse().getheader("Date")
    conn.close()


def test_health_check_names_the_host_asked_for(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("GET", "/")
    res = conn.getresponse()
    assert res.read() == f"healthy: 127.0.0.1:{server.port} ".encode()
    conn.request("GET", "/", headers={"Host": "dynamodb.us-east-1.amazonaws.com"})
    assert conn.getresponse().read() == b"healthy: dynamodb.us-east-1.amazonaws.com "
    for path in ("/abc", "/-", "/index.htm"):
        conn.request("GET", path)
        res = conn.getresponse()
        res.read()
        assert res.status == 404
    conn.close()


def test_operations_only_at_the_root_path(server):
    res, data = post(server, "ListTables", b"{}", path="/garbage")
    assert res.status == 404
    assert data == b"<UnknownOperationException/>\n"
    res, _ = post(server, "ListTables", b"{}", path="/?a=b")
    assert res.status == 200


def raw_exchange(server, data):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_headers_and_request_line_over_16_kb_are_400(server):
    body = b"{}"
    head = (b"Host: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
            b"X-Amz-Target: DynamoDB_20120810.ListTables\r\n"
            b"Content-Length: 2\r\n")
    ok = raw_exchange(server, b"POST / HTTP/1.1\r\n" + head +
                      b"H1: " + b"a" * 6000 + b"\r\n\r\n" + body)
    assert ok.startswith(b"HTTP/1.1 200")
    big = raw_exchange(server, b"POST / HTTP/1.1\r\n" + head + b"H1: " + b"a" * 8192 +
                       b"\r\nH2: " + b"b" * 8192 + b"\r\n\r\n" + body)
    assert big.startswith(b"HTTP/1.1 400")
    line = raw_exchange(server, b"POST /" + b"x" * 17000 + b" HTTP/1.1\r\n" + head +
                        b"\r\n" + body)
    assert line.startswith(b"HTTP/1.1 400")
    assert b"InvalidSignatureException" not in line


def test_413_is_chunked_as_dynamodb_sends_it(server):
    res, _ = post(server, "ListTables", b"{" + b" " * (16 * 1024 * 1024 + 1) + b"}")
    assert res.status == 413
    assert res.getheader("Transfer-Encoding") == "chunked"
