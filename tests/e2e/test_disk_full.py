"""A full disk: `dynarock serve` with its database on a small tmpfs.

The filesystem is filled by the server's own writes (a ballast file holds
most of it, so the test controls when space returns) until it reaches the
server's floor (--min-free-disk-mb). While the disk is full:

- a write that cannot be made durable answers HTTP 500 InternalServerError
  (DynamoDB's error for a failure on its side; SDKs retry it) and takes no
  effect;
- every write acknowledged before stays readable, with its value;
- the server keeps running and answering.

When space returns (the ballast is deleted), writes succeed again without a
restart, the GSI catches up, and after a restart every acknowledged write is
there and the GSI and the item counts match the items (VerifyIndexes).

Mounting a tmpfs needs root (CI runs as root; scripts/setup.sh installs
packages as root too).

Run: /usr/bin/python3 -m pytest tests/e2e/test_disk_full.py
"""

import http.client
import json
import os
import subprocess
import time
from urllib.parse import urlparse

import pytest
from botocore.exceptions import ClientError

from conftest import DynarockServer, unique_name

DISK_MB = 64
BALLAST_MB = 30
FLOOR_MB = 16
VALUE_BYTES = 100_000


@pytest.fixture
def small_disk(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mounting a size-limited tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK_MB}m", "tmpfs", str(mount)],
                   check=True)
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def extension(url, operation, body):
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    conn.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoRock_20251121." + operation,
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDE2E/20251121/us-east-1/"
                         "dynamodb/aws4_request, SignedHeaders=host, Signature=0"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data


def value_of(i):
    # Incompressible enough that the WAL grows by about VALUE_BYTES a write.
    return (f"{i:08d}" + os.urandom(VALUE_BYTES // 2).hex())[:VALUE_BYTES]


def put(ddb, table, i):
    ddb.put_item(TableName=table, Item={
        "pk": {"S": f"k{i}"}, "g": {"S": f"g{i % 7}"}, "v": {"S": value_of(i)}})


def check_all(ddb, table, acked):
    for i, _ in acked.items():
        item = ddb.get_item(TableName=table, Key={"pk": {"S": f"k{i}"}},
                            ConsistentRead=True).get("Item")
        assert item is not None, f"acknowledged k{i} is gone"
        assert item["v"]["S"].startswith(f"{i:08d}"), f"k{i} has another value"


def test_full_disk_refuses_writes_keeps_data_and_recovers(small_disk):
    ballast = small_disk / "ballast"
    with open(ballast, "wb") as f:
        f.write(b"\0" * (BALLAST_MB << 20))
    db = small_disk / "db"
    server = DynarockServer("--db-path", str(db), "--throttling", "off",
                            "--min-free-disk-mb", str(FLOOR_MB))
    try:
        ddb = server.client()
        table = unique_name("disk")
        ddb.create_table(
            TableName=table, BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "g", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
            GlobalSecondaryIndexes=[{
                "IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}}])
        ddb.get_waiter("table_exists").wait(TableName=table,
                                            WaiterConfig={"Delay": 0.1, "MaxAttempts": 100})

        # Fill the disk with the server's own writes.
        acked = {}
        failure = None
        limit = (DISK_MB << 20) // VALUE_BYTES + 50
        for i in range(limit):
            try:
                put(ddb, table, i)
                acked[i] = True
            except ClientError as e:
                failure = e
                break
        assert failure is not None, f"{limit} writes of {VALUE_BYTES} bytes fit on {DISK_MB} MB"
        assert failure.response["ResponseMetadata"]["HTTPStatusCode"] == 500
        assert failure.response["Error"]["Code"] == "InternalServerError"
        assert len(acked) > 10

        # Still full: writes keep failing (none is half-applied), reads work.
        refused = []
        for i in range(limit, limit + 5):
            try:
                put(ddb, table, i)
                acked[i] = True
            except ClientError as e:
                assert e.response["Error"]["Code"] == "InternalServerError"
                refused.append(i)
        assert refused, "writes succeeded on a full disk"
        for i in refused:
            assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": f"k{i}"}},
                                              ConsistentRead=True)
        check_all(ddb, table, acked)
        assert server.proc.poll() is None, "the server died on a full disk"

        # Space returns: writes succeed again without a restart (bounded wait
        # for RocksDB's recovery, which polls the free space).
        ballast.unlink()
        recovered = None
        deadline = time.monotonic() + 60
        n = limit + 100
        while time.monotonic() < deadline:
            try:
                put(ddb, table, n)
                acked[n] = True
                recovered = n
                break
            except ClientError as e:
                assert e.response["Error"]["Code"] == "InternalServerError"
                time.sleep(0.2)
        assert recovered is not None, "writes still fail 60 s after space returned"
        for i in range(n + 1, n + 20):
            put(ddb, table, i)
            acked[i] = True
        check_all(ddb, table, acked)
        status, body = extension(server.url, "WaitForIndexes", {})
        assert status == 200, body
        status, body = extension(server.url, "VerifyIndexes", {"TableName": table})
        assert status == 200, body

        # And after a restart: everything acknowledged, indexes and counts right.
        err = server.stop()
        assert server.returncode == 0, err
        server = DynarockServer("--db-path", str(db), "--throttling", "off",
                            "--min-free-disk-mb", str(FLOOR_MB))
        ddb = server.client()
        check_all(ddb, table, acked)
        pages = ddb.get_paginator("scan").paginate(TableName=table, Select="COUNT",
                                                   ConsistentRead=True)
        assert sum(page["Count"] for page in pages) == len(acked)
        status, body = extension(server.url, "WaitForIndexes", {})
        assert status == 200, body
        status, body = extension(server.url, "VerifyIndexes", {"TableName": table})
        assert status == 200, body
    finally:
        server.stop()
