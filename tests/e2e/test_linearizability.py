"""Linearizability of single-item operations: concurrent boto3 clients do
GetItem (ConsistentRead), PutItem and conditional UpdateItem
(compare-and-set) on a few keys of a live `dynarock serve`, recording when
each call began and ended and what it returned; a Wing & Gong / Lowe style
checker (with memoization of visited states) then searches, key by key,
for an order of the operations that respects real time and the semantics
of a register. Also: after the load stops, a GSI over the same items
converges to them (WaitForIndexes, then VerifyIndexes).

Time: $DYNAROCK_LINEARIZABILITY_SECONDS (default 10), at most OPS_PER_CLIENT
operations per client.

Run: /usr/bin/python3 -m pytest -s tests/e2e/test_linearizability.py
"""

import os
import random
import threading
import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import extension, unique_name

SECONDS = float(os.environ.get("DYNAROCK_LINEARIZABILITY_SECONDS", "10"))
CLIENTS = 6
KEYS = 3
OPS_PER_CLIENT = 800


class Op:
    __slots__ = ("id", "key", "kind", "arg", "result", "call", "ret")

    def __init__(self, id, key, kind, arg, result, call, ret):
        self.id, self.key, self.kind, self.arg = id, key, kind, arg
        self.result, self.call, self.ret = result, call, ret


def step(state, op):
    """The register: (ok, next state). get -> value; put(x); cas((old, new))
    -> True/False."""
    if op.kind == "get":
        return op.result == state, state
    if op.kind == "put":
        return True, op.arg
    old, new = op.arg
    if op.result:
        return state == old, new
    return state != old, state


def linearizable(ops, initial=None):
    """True if the operations (on one key) have a linearization. Lowe's
    just-in-time linearization of Wing & Gong's search: a doubly linked list
    of call and return events in time order; a call is tried as the next
    linearized operation, a return whose call is not yet linearized forces a
    backtrack; (linearized set, state) pairs already explored are skipped."""
    events = []
    for op in ops:
        events.append((op.call, 0, op))
        events.append((op.ret, 1, op))
    events.sort(key=lambda e: (e[0], e[1]))
    n = len(events)
    # Nodes 0..n-1, head sentinel n. match[i]: index of the return of call i.
    prev = list(range(-1, n - 1)) + [None]
    nxt = list(range(1, n + 1)) + [None]
    nxt[n - 1] = None
    head = n
    prev[0] = head
    nxt[head] = 0 if n else None
    ret_index = {}
    for i, (_, is_ret, op) in enumerate(events):
        if is_ret:
            ret_index[op.id] = i

    def lift(i):
        j = ret_index[events[i][2].id]
        for k in (i, j):
            p, q = prev[k], nxt[k]
            nxt[p] = q
            if q is not None:
                prev[q] = p

    def unlift(i):
        j = ret_index[events[i][2].id]
        for k in (j, i):
            p, q = prev[k], nxt[k]
            nxt[p] = k
            if q is not None:
                prev[q] = k

    state = initial
    linearized = 0
    seen = set()
    stack = []
    entry = nxt[head]
    while nxt[head] is not None:
        if entry is None:
            return False
        _, is_ret, op = events[entry]
        if not is_ret:
            ok, new_state = step(state, op)
            if ok:
                bits = linearized | (1 << op.id)
                if (bits, new_state) not in seen:
                    seen.add((bits, new_state))
                    stack.append((entry, state))
                    state, linearized = new_state, bits
                    lift(entry)
                    entry = nxt[head]
                    continue
            entry = nxt[entry]
        else:
            if not stack:
                return False
            entry, state = stack.pop()
            linearized &= ~(1 << events[entry][2].id)
            unlift(entry)
            entry = nxt[entry]
    return True


def op(id, kind, arg, result, call, ret):
    return Op(id, "k", kind, arg, result, call, ret)


def test_checker_accepts_and_rejects_known_histories():
    # Sequential: put a, get a, cas a->b ok, get b.
    good = [op(0, "put", "a", None, 0, 1), op(1, "get", None, "a", 2, 3),
            op(2, "cas", ("a", "b"), True, 4, 5), op(3, "get", None, "b", 6, 7)]
    assert linearizable(good)
    # A stale read after a completed write.
    assert not linearizable([op(0, "put", "a", None, 0, 1),
                             op(1, "get", None, None, 2, 3)])
    # Two successful CAS from the same old value cannot both win.
    assert not linearizable([op(0, "put", "a", None, 0, 1),
                             op(1, "cas", ("a", "b"), True, 2, 5),
                             op(2, "cas", ("a", "c"), True, 3, 6)])
    # Concurrent put and get: the get may see either value.
    for seen in (None, "a"):
        assert linearizable([op(0, "put", "a", None, 0, 10),
                             op(1, "get", None, seen, 1, 2)])
    # A failed CAS must have seen another value.
    assert not linearizable([op(0, "put", "a", None, 0, 1),
                             op(1, "cas", ("a", "b"), False, 2, 3)])


def make_client(url):
    return boto3.client(
        "dynamodb", endpoint_url=url, region_name="us-east-1",
        aws_access_key_id="AKIDLIN", aws_secret_access_key="secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"},
                      max_pool_connections=2, read_timeout=30))


def run_client(c, table, index, seed, deadline, history, ids, errors):
    rng = random.Random(seed)
    last_seen = {}
    for n in range(OPS_PER_CLIENT):
        if time.monotonic() >= deadline:
            return
        key = f"k{rng.randrange(KEYS)}"
        k = {"pk": {"S": key}}
        r = rng.random()
        try:
            if r < 0.4:
                kind, arg = "get", None
                call = time.monotonic_ns()
                got = c.get_item(TableName=table, Key=k, ConsistentRead=True)
                ret = time.monotonic_ns()
                item = got.get("Item")
                result = item["v"]["S"] if item and "v" in item else None
                last_seen[key] = result
            elif r < 0.6:
                kind, arg, result = "put", f"c{index}-{n}", None
                call = time.monotonic_ns()
                c.put_item(TableName=table, Item={**k, "v": {"S": arg},
                                                  "g": {"S": arg[-1]}})
                ret = time.monotonic_ns()
            else:
                old, new = last_seen.get(key), f"c{index}-{n}"
                kind, arg = "cas", (old, new)
                kwargs = {"TableName": table, "Key": k,
                          "UpdateExpression": "SET v = :new, g = :g",
                          "ExpressionAttributeValues": {":new": {"S": new},
                                                        ":g": {"S": new[-1]}}}
                if old is None:
                    kwargs["ConditionExpression"] = "attribute_not_exists(v)"
                else:
                    kwargs["ConditionExpression"] = "v = :old"
                    kwargs["ExpressionAttributeValues"][":old"] = {"S": old}
                call = time.monotonic_ns()
                try:
                    c.update_item(**kwargs)
                    result = True
                except ClientError as e:
                    if e.response["Error"]["Code"] != "ConditionalCheckFailedException":
                        raise
                    result = False
                ret = time.monotonic_ns()
                if result:
                    last_seen[key] = new
        except Exception as e:  # noqa: BLE001: any failure fails the test
            errors.append(repr(e))
            return
        with ids[1]:
            ids[0] += 1
            history.append(Op(ids[0] - 1, key, kind, arg, result, call, ret))


def test_single_item_operations_are_linearizable(start_server):
    s = start_server("--in-memory", "--throttling", "off", "--threads", "4")
    c = make_client(s.url)
    table = unique_name("lin")
    c.create_table(
        TableName=table, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "byG", "Projection": {"ProjectionType": "KEYS_ONLY"},
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}])
    c.get_waiter("table_exists").wait(
        TableName=table, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    seed = int(os.environ.get("DYNAROCK_LINEARIZABILITY_SEED", random.randrange(1 << 30)))
    print(f"\nlinearizability seed {seed}, {SECONDS:.0f} s")
    history, errors, ids = [], [], [0, threading.Lock()]
    deadline = time.monotonic() + SECONDS
    clients = [make_client(s.url) for _ in range(CLIENTS)]
    threads = [threading.Thread(target=run_client,
                                args=(clients[i], table, i, seed + i, deadline,
                                      history, ids, errors))
               for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:5]
    check_start = time.monotonic()
    for key in sorted({o.key for o in history}):
        ops = [o for o in history if o.key == key]
        # Ids local to the key keep the linearized-set bitmask small.
        for i, o in enumerate(ops):
            o.id = i
        assert linearizable(ops), f"history of {key} is not linearizable"
        # A control: the same history with one read of a value never written
        # is rejected, so the checker really looked.
        read = next((o for o in ops if o.kind == "get"), None)
        if read is not None:
            kept, read.result = read.result, "never-written"
            assert not linearizable(ops)
            read.result = kept
    counts = {k: sum(1 for o in history if o.kind == k) for k in ("get", "put", "cas")}
    wins = sum(1 for o in history if o.kind == "cas" and o.result)
    print(f"linearizability: {len(history)} operations checked ({counts}, "
          f"{wins} CAS won) in {time.monotonic() - check_start:.1f} s")
    assert len(history) > 100

    # The GSI converges to the final items once the load has stopped.
    status, body = extension(s.url, "WaitForIndexes", {}, key="AKIDLIN")
    assert status == 200, body
    status, body = extension(s.url, "VerifyIndexes", {"TableName": table}, key="AKIDLIN")
    assert (status, body) == (200, {}), body
