"""Crash consistency: `dynarock serve --sync-writes` on disk is killed with
SIGKILL at random moments under a mixed write load, again and again, for a
bounded time. After every restart:

- every acknowledged write is there with its acknowledged value (a ledger
  per writer: puts, conditional updates with counters, deletes, batch
  writes, writes that move items between GSI keys);
- a write that was in flight when the server died is there whole or not at
  all (a BatchWriteItem is one RocksDB batch: all its items or none);
- the GSI matches the items and ItemCount / TableSizeBytes match a recount
  (the DynamoRock_20251121.VerifyIndexes extension, after WaitForIndexes);
- the per-writer counters (ADD on every update) equal the updates
  acknowledged.

Time: $DYNAROCK_CRASH_SECONDS (default 60). Seed: $DYNAROCK_CRASH_SEED.

Run: /usr/bin/python3 -m pytest -s tests/e2e/test_crash_consistency.py
"""

import json
import os
import random
import signal
import threading
import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import DynarockServer, unique_name
from conftest import extension as conftest_extension

SECONDS = float(os.environ.get("DYNAROCK_CRASH_SECONDS", "60"))
WRITERS = 4
KEYS_PER_WRITER = 24
GSI_KEYS = 5


def client(url):
    # No retries: a retried conditional write would blur what was applied.
    return boto3.client(
        "dynamodb", endpoint_url=url, region_name="us-east-1",
        aws_access_key_id="AKIDCRASH", aws_secret_access_key="secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"},
                      connect_timeout=5, read_timeout=30))


def extension(url, operation, body):
    return conftest_extension(url, operation, body, key="AKIDCRASH")


def freeze(item):
    """An item (DynamoDB JSON) as a comparable value; None stays None."""
    return None if item is None else json.dumps(item, sort_keys=True)


class Writer:
    """One client thread owning its keys, with a ledger of their
    acknowledged state and at most one write in flight."""

    def __init__(self, index, table, seed):
        self.index = index
        self.table = table
        self.rng = random.Random(seed)
        self.keys = [f"w{index}-k{i}" for i in range(KEYS_PER_WRITER)]
        self.counter_key = f"w{index}-counter"
        self.state = {k: None for k in self.keys + [self.counter_key]}
        self.uncertain = None  # {key: after} of the write in flight at the kill
        self.acked = 0
        self.seq = 0
        self.error = None

    def item(self, key, v):
        return {"pk": {"S": key}, "v": {"N": str(v)},
                "g": {"S": f"g{v % GSI_KEYS}"},
                "pad": {"S": "x" * self.rng.randrange(0, 2000)}}

    def next_write(self):
        """(request name, kwargs, {key: state after})."""
        self.seq += 1
        v = self.seq
        kind = self.rng.random()
        key = self.rng.choice(self.keys)
        before = self.state[key]
        if kind < 0.3:
            item = self.item(key, v)
            return "put_item", {"TableName": self.table, "Item": item}, {key: item}
        if kind < 0.6:
            # Conditional on the acknowledged state; moves the item to
            # another GSI key; counts itself on the writer's counter item
            # in a second, unconditional ADD below.
            after = dict(before or {"pk": {"S": key}})
            after["v"] = {"N": str(v)}
            after["g"] = {"S": f"g{v % GSI_KEYS}"}
            n = int(after.get("n", {"N": "0"})["N"]) + 1
            after["n"] = {"N": str(n)}
            cond = ("attribute_not_exists(pk)" if before is None else "v = :old")
            values = {":v": {"N": str(v)}, ":g": {"S": f"g{v % GSI_KEYS}"},
                      ":one": {"N": "1"}}
            if before is not None:
                values[":old"] = before["v"]
            return "update_item", {
                "TableName": self.table, "Key": {"pk": {"S": key}},
                "UpdateExpression": "SET v = :v, g = :g ADD n :one",
                "ConditionExpression": cond,
                "ExpressionAttributeValues": values}, {key: after}
        if kind < 0.7:
            return "delete_item", {"TableName": self.table,
                                   "Key": {"pk": {"S": key}}}, {key: None}
        if kind < 0.85:
            keys = self.rng.sample(self.keys, self.rng.randrange(2, 8))
            requests, after = [], {}
            for i, k in enumerate(keys):
                if self.rng.random() < 0.75:
                    item = self.item(k, v * 10 + i)
                    requests.append({"PutRequest": {"Item": item}})
                    after[k] = item
                else:
                    requests.append({"DeleteRequest": {"Key": {"pk": {"S": k}}}})
                    after[k] = None
            return "batch_write_item", {"RequestItems": {self.table: requests}}, after
        counter = self.state[self.counter_key]
        count = int(counter["c"]["N"]) if counter else 0
        after = {"pk": {"S": self.counter_key}, "c": {"N": str(count + 1)}}
        return "update_item", {
            "TableName": self.table, "Key": {"pk": {"S": self.counter_key}},
            "UpdateExpression": "ADD c :one",
            "ExpressionAttributeValues": {":one": {"N": "1"}}}, {self.counter_key: after}

    def run(self, c, stop):
        while not stop.is_set():
            name, kwargs, after = self.next_write()
            try:
                response = getattr(c, name)(**kwargs)
            except ClientError as e:
                self.error = f"{name} {kwargs} -> {e.response['Error']}"
                return
            except Exception:  # the server died with this write in flight
                self.uncertain = after
                return
            if name == "batch_write_item" and response.get("UnprocessedItems"):
                self.error = f"unprocessed items: {response['UnprocessedItems']}"
                return
            self.state.update(after)
            self.acked += 1

    def check(self, stored):
        """Compares the stored items with the ledger; resolves the write in
        flight (all of it or none of it) and returns the problems."""
        problems = []
        pending = self.uncertain or {}
        self.uncertain = None
        if pending:
            applied = all(freeze(stored.get(k)) == freeze(a) for k, a in pending.items())
            if applied:
                self.state.update(pending)
                self.acked += 1
            elif any(freeze(stored.get(k)) != freeze(self.state[k]) for k in pending):
                problems.append(f"writer {self.index}: a write in flight is half "
                                f"there: {sorted(pending)}")
        for k, want in self.state.items():
            got = stored.get(k)
            if k in pending:
                continue
            if freeze(got) != freeze(want):
                problems.append(f"{k}: acknowledged {want}, stored {got}")
        return problems


def scan_all(c, table):
    items, kwargs = {}, {"TableName": table, "ConsistentRead": True}
    while True:
        page = c.scan(**kwargs)
        for item in page["Items"]:
            items[item["pk"]["S"]] = item
        if "LastEvaluatedKey" not in page:
            return items
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def create_table(c, name):
    c.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "byG", "Projection": {"ProjectionType": "ALL"},
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                          {"AttributeName": "pk", "KeyType": "RANGE"}]}])
    c.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})


def test_sigkill_loses_no_acknowledged_write(tmp_path):
    seed = int(os.environ.get("DYNAROCK_CRASH_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    print(f"\ncrash consistency seed {seed}, {SECONDS:.0f} s")
    args = ("--db-path", str(tmp_path / "db"), "--sync-writes", "--throttling", "off")
    table = unique_name("crash")
    server = DynarockServer(*args)
    create_table(client(server.url), table)
    writers = [Writer(i, table, seed * 100 + i) for i in range(WRITERS)]
    kills = checked = 0
    start = time.monotonic()
    try:
        while time.monotonic() - start < SECONDS:
            stop = threading.Event()
            # boto3 clients are created here: creating them is not thread-safe.
            threads = [threading.Thread(target=w.run, args=(client(server.url), stop))
                       for w in writers]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.05, 1.5))
            server.stop(kill=True)
            assert server.returncode == -signal.SIGKILL, server.returncode
            kills += 1
            stop.set()
            for t in threads:
                t.join(timeout=60)
                assert not t.is_alive(), "a writer hung"
            errors = [w.error for w in writers if w.error]
            assert not errors, errors

            server = DynarockServer(*args)
            c = client(server.url)
            stored = scan_all(c, table)
            problems = [p for w in writers for p in w.check(stored)]
            assert not problems, problems[:20]
            checked += sum(len(w.state) for w in writers)
            status, body = extension(server.url, "WaitForIndexes", {})
            assert status == 200, body
            status, body = extension(server.url, "VerifyIndexes", {"TableName": table})
            assert (status, body) == (200, {}), body
            live = sum(1 for w in writers for s in w.state.values() if s is not None)
            assert c.describe_table(TableName=table)["Table"]["ItemCount"] == live
            # GSI queries see the items of each GSI key.
            for g in range(GSI_KEYS):
                got = c.query(TableName=table, IndexName="byG",
                              KeyConditionExpression="g = :g",
                              ExpressionAttributeValues={":g": {"S": f"g{g}"}})
                want = sorted(k for w in writers for k, s in w.state.items()
                              if s is not None and s.get("g", {}).get("S") == f"g{g}")
                assert sorted(i["pk"]["S"] for i in got["Items"]) == want
    finally:
        server.stop(kill=True)
    acked = sum(w.acked for w in writers)
    print(f"crash consistency: {kills} SIGKILLs, {acked} acknowledged writes, "
          f"{checked} item states checked, 0 lost")
    assert kills >= 3 and acked > 0
