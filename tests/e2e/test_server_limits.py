"""`dynarock serve`'s resource limits through real sockets and boto3:
--max-connections, --max-inflight-mb, --idle-timeout, --header-timeout and
--request-timeout. A client over a limit gets a 503 ServiceUnavailable (which
every AWS SDK retries) or is dropped; the server keeps answering others.

Run: /usr/bin/python3 -m pytest tests/e2e/test_server_limits.py
"""

import socket
import time

import pytest
from botocore.exceptions import ClientError

HEAD = ("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.0\r\n"
        "X-Amz-Target: DynamoDB_20120810.ListTables\r\n")


def connect(server, timeout=10.0):
    s = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    return s


def read_response(sock):
    """Reads one response (headers and a Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def list_tables_request(close=False):
    return (HEAD + ("Connection: close\r\n" if close else "") +
            "Content-Length: 2\r\n\r\n{}").encode()


def closed_by_server(sock, within):
    """True if the server closes `sock` (EOF or reset) within `within` s
    while we send nothing."""
    sock.settimeout(within)
    try:
        while True:
            if not sock.recv(4096):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def still_serving(server):
    assert "TableNames" in server.client().list_tables()


def test_max_connections_answers_503_and_recovers(start_server):
    s = start_server("--in-memory", "--max-connections", "3", "--threads", "2")
    held = [connect(s) for _ in range(3)]
    for sock in held:  # answered, so accepted and counted
        sock.sendall(list_tables_request())
        assert read_response(sock).startswith(b"HTTP/1.1 200")
    extra = connect(s)
    extra.sendall(list_tables_request())
    reply = read_response(extra)
    assert reply.startswith(b"HTTP/1.1 503"), reply
    assert b'"__type":"com.amazonaws.dynamodb.v20120810#ServiceUnavailable"' in reply
    extra.close()
    # An SDK sees DynamoDB's ServiceUnavailable (and would retry it).
    with pytest.raises(ClientError) as e:
        s.client().list_tables()
    assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == 503
    assert e.value.response["Error"]["Code"] == "ServiceUnavailable"
    # Closing one frees its place.
    held.pop().close()
    deadline = time.monotonic() + 10
    while True:
        try:
            still_serving(s)
            break
        except ClientError:
            assert time.monotonic() < deadline, "never served again"
            time.sleep(0.05)
    for sock in held:
        sock.close()


def test_max_inflight_mb_bounds_buffered_request_bytes(start_server):
    s = start_server("--in-memory", "--max-inflight-mb", "1")
    # One request declares 700 KB and sends its body slowly.
    holder = connect(s)
    holder.sendall((HEAD + "Content-Length: 716800\r\n\r\n{").encode())
    time.sleep(0.2)
    # A second one of 700 KB does not fit next to it: 503 at once, before
    # its body is sent.
    other = connect(s)
    other.sendall((HEAD + "Content-Length: 716800\r\n\r\n").encode())
    reply = read_response(other)
    assert reply.startswith(b"HTTP/1.1 503"), reply
    assert b"ServiceUnavailable" in reply
    other.close()
    # A body over the whole budget is refused even alone (declared 2 MB).
    big = connect(s)
    big.sendall((HEAD + "Content-Length: 2097152\r\n\r\n").encode())
    assert read_response(big).startswith(b"HTTP/1.1 503")
    big.close()
    # Small requests still get through.
    still_serving(s)
    # The holder finishes (a ValidationException-free ListTables with
    # padding); afterwards 700 KB fits again.
    holder.sendall(b"}" + b" " * (716800 - 2))
    assert read_response(holder).startswith(b"HTTP/1.1 200")
    holder.close()
    again = connect(s)
    again.sendall((HEAD + "Content-Length: 716800\r\n\r\n{}").encode() +
                  b" " * (716800 - 2))
    assert read_response(again).startswith(b"HTTP/1.1 200")
    again.close()


def test_idle_connections_are_closed(start_server):
    s = start_server("--in-memory", "--idle-timeout", "0.5")
    sock = connect(s)
    sock.sendall(list_tables_request())
    assert read_response(sock).startswith(b"HTTP/1.1 200")
    assert closed_by_server(sock, within=15)
    sock.close()
    still_serving(s)


def test_slowloris_headers_are_dropped(start_server):
    s = start_server("--in-memory", "--header-timeout", "0.5")
    sock = connect(s)
    # One byte every 50 ms, forever: dropped after the header timeout even
    # though bytes keep coming.
    dropped = False
    payload = (HEAD + "X-Pad: " + "a" * 100000).encode()
    for i in range(len(payload)):
        try:
            sock.send(payload[i:i + 1])
        except (BrokenPipeError, ConnectionResetError):
            dropped = True
            break
        if i > 400:  # 20 s of trickling: far past the 0.5 s timeout
            break
        time.sleep(0.05)
    sock.close()
    assert dropped, "a trickling client was never dropped"
    still_serving(s)


def test_slow_bodies_are_dropped(start_server):
    s = start_server("--in-memory", "--request-timeout", "0.5")
    sock = connect(s)
    sock.sendall((HEAD + "Content-Length: 100000\r\n\r\n").encode())
    dropped = False
    for _ in range(400):
        try:
            sock.send(b" ")
        except (BrokenPipeError, ConnectionResetError):
            dropped = True
            break
        time.sleep(0.05)
    sock.close()
    assert dropped, "a slow body was never dropped"
    still_serving(s)
