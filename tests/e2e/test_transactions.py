"""TransactWriteItems and TransactGetItems through boto3 (client and the
Table resource's client), the AWS CLI, and a server killed mid-stream:
all-or-nothing writes, CancellationReasons as botocore surfaces them,
doubled capacity, idempotency, conflicts, and crash atomicity."""

import json
import os
import signal
import subprocess
import threading
import time

import pytest
from botocore.exceptions import ClientError

from conftest import REGION, DynarockServer, create_simple_table, make_client, unique_name
from test_indexes import extension


def put(table, item, **extra):
    return {"Put": {"TableName": table, "Item": item, **extra}}


def error_of(excinfo):
    return excinfo.value.response["Error"]["Code"], excinfo.value.response["Error"]["Message"]


@pytest.fixture
def accounts(ddb):
    name = create_simple_table(ddb, unique_name("tx"))
    for who, balance in (("alice", 100), ("bob", 50)):
        ddb.put_item(TableName=name, Item={"pk": {"S": who}, "balance": {"N": str(balance)}})
    return name


def transfer(table, src, dst, amount):
    return [
        {"Update": {"TableName": table, "Key": {"pk": {"S": src}},
                    "UpdateExpression": "SET balance = balance - :a",
                    "ConditionExpression": "balance >= :a",
                    "ExpressionAttributeValues": {":a": {"N": str(amount)}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        {"Update": {"TableName": table, "Key": {"pk": {"S": dst}},
                    "UpdateExpression": "SET balance = balance + :a",
                    "ExpressionAttributeValues": {":a": {"N": str(amount)}}}},
    ]


def balances(ddb, table, *who):
    r = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": table, "Key": {"pk": {"S": w}}}} for w in who])
    return [int(x["Item"]["balance"]["N"]) if "Item" in x else None for x in r["Responses"]]


def test_transfer_commits_both_items_and_costs_double(ddb, accounts):
    r = ddb.transact_write_items(TransactItems=transfer(accounts, "alice", "bob", 30),
                                 ReturnConsumedCapacity="TOTAL")
    assert balances(ddb, accounts, "alice", "bob") == [70, 80]
    # Two 1 KB writes at 2 WCU each.
    assert r["ConsumedCapacity"] == [{"TableName": accounts, "CapacityUnits": 4.0}]


def test_failed_condition_cancels_everything_with_reasons(ddb, accounts):
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=transfer(accounts, "bob", "alice", 500))
    code, message = error_of(e)
    assert code == "TransactionCanceledException"
    assert message == ("Transaction cancelled, please refer cancellation reasons for "
                       "specific reasons [ConditionalCheckFailed, None]")
    reasons = e.value.response["CancellationReasons"]
    assert reasons[0]["Code"] == "ConditionalCheckFailed"
    assert reasons[0]["Message"] == "The conditional request failed"
    assert reasons[0]["Item"] == {"pk": {"S": "bob"}, "balance": {"N": "50"}}
    assert reasons[1] == {"Code": "None"}
    assert balances(ddb, accounts, "alice", "bob") == [100, 50]


def test_put_delete_condition_check_and_gets_in_order(ddb, accounts):
    ddb.transact_write_items(TransactItems=[
        put(accounts, {"pk": {"S": "carol"}, "balance": {"N": "5"}},
            ConditionExpression="attribute_not_exists(pk)"),
        {"Delete": {"TableName": accounts, "Key": {"pk": {"S": "bob"}}}},
        {"ConditionCheck": {"TableName": accounts, "Key": {"pk": {"S": "alice"}},
                            "ConditionExpression": "balance = :b",
                            "ExpressionAttributeValues": {":b": {"N": "100"}}}},
    ])
    r = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": accounts, "Key": {"pk": {"S": "bob"}}}},
        {"Get": {"TableName": accounts, "Key": {"pk": {"S": "carol"}},
                 "ProjectionExpression": "#b", "ExpressionAttributeNames": {"#b": "balance"}}},
        {"Get": {"TableName": accounts, "Key": {"pk": {"S": "alice"}}}},
    ], ReturnConsumedCapacity="TOTAL")
    assert r["Responses"] == [{}, {"Item": {"balance": {"N": "5"}}},
                              {"Item": {"pk": {"S": "alice"}, "balance": {"N": "100"}}}]
    # Three strongly consistent reads at 2 RCU each.
    assert r["ConsumedCapacity"] == [{"TableName": accounts, "CapacityUnits": 6.0}]


def test_validation_errors(ddb, accounts):
    key = {"pk": {"S": "alice"}}
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            {"Delete": {"TableName": accounts, "Key": key}},
            {"ConditionCheck": {"TableName": accounts, "Key": key,
                                "ConditionExpression": "attribute_exists(pk)"}}])
    assert error_of(e) == ("ValidationException",
                           "Transaction request cannot include multiple operations on one item")
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            put(accounts, {"pk": {"S": f"p{i}"}}) for i in range(101)])
    assert error_of(e)[0] == "ValidationException"
    assert "Member must have length less than or equal to 100" in error_of(e)[1]
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[put("no-such-table", {"pk": {"S": "x"}})])
    assert error_of(e)[0] == "ResourceNotFoundException"
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            put(accounts, {"pk": {"S": "x"}}, ConditionExpression="balance >")])
    assert error_of(e)[0] == "ValidationException"
    # A key attribute missing is the action's ValidationError.
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            put(accounts, {"pk": {"S": "ok"}}), put(accounts, {"nokey": {"S": "x"}})])
    assert error_of(e)[0] == "TransactionCanceledException"
    reasons = e.value.response["CancellationReasons"]
    assert reasons[0] == {"Code": "None"}
    assert reasons[1]["Code"] == "ValidationError"
    assert "ok" not in [i["pk"]["S"] for i in ddb.scan(TableName=accounts)["Items"]]


def test_client_request_token_is_idempotent(ddb, accounts):
    items = transfer(accounts, "alice", "bob", 10)
    first = ddb.transact_write_items(TransactItems=items, ClientRequestToken="tok-1",
                                     ReturnConsumedCapacity="TOTAL")
    again = ddb.transact_write_items(TransactItems=items, ClientRequestToken="tok-1",
                                     ReturnConsumedCapacity="TOTAL")
    assert balances(ddb, accounts, "alice", "bob") == [90, 60]  # applied once
    assert first["ConsumedCapacity"][0]["CapacityUnits"] == 4.0
    # The repeat reads its two items (1 RCU each) and writes nothing.
    assert again["ConsumedCapacity"][0]["CapacityUnits"] == 2.0
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=transfer(accounts, "alice", "bob", 11),
                                 ClientRequestToken="tok-1")
    assert e.value.response["Error"]["Code"] == "IdempotentParameterMismatchException"


def test_resource_table_client(ddb_resource, accounts):
    client = ddb_resource.Table(accounts).meta.client  # the high-level client
    client.transact_write_items(TransactItems=[
        {"Put": {"TableName": accounts, "Item": {"pk": "dave", "balance": 7}}},
        {"Update": {"TableName": accounts, "Key": {"pk": "alice"},
                    "UpdateExpression": "SET balance = balance - :a",
                    "ExpressionAttributeValues": {":a": 7}}}])
    r = client.transact_get_items(TransactItems=[
        {"Get": {"TableName": accounts, "Key": {"pk": "dave"}}},
        {"Get": {"TableName": accounts, "Key": {"pk": "alice"}}}])
    assert [x["Item"]["balance"] for x in r["Responses"]] == [7, 93]
    with pytest.raises(client.exceptions.TransactionCanceledException) as e:
        client.transact_write_items(TransactItems=[
            {"ConditionCheck": {"TableName": accounts, "Key": {"pk": "dave"},
                                "ConditionExpression": "balance > :z",
                                "ExpressionAttributeValues": {":z": 100}}}])
    assert e.value.response["CancellationReasons"] == [
        {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}]


def aws_cli(endpoint, *args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDE2E", AWS_SECRET_ACCESS_KEY="secret",
               AWS_DEFAULT_REGION=REGION, AWS_PAGER="")
    return subprocess.run(["aws", "dynamodb", "--endpoint-url", endpoint, *args],
                          capture_output=True, text=True, env=env, timeout=60)


def test_aws_cli_transact_write_and_get(endpoint, ddb, accounts):
    r = aws_cli(endpoint, "transact-write-items", "--transact-items",
                json.dumps(transfer(accounts, "alice", "bob", 25)),
                "--return-consumed-capacity", "TOTAL")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["ConsumedCapacity"][0]["CapacityUnits"] == 4.0
    r = aws_cli(endpoint, "transact-get-items", "--transact-items", json.dumps([
        {"Get": {"TableName": accounts, "Key": {"pk": {"S": "alice"}}}}]))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["Responses"][0]["Item"]["balance"] == {"N": "75"}
    r = aws_cli(endpoint, "transact-write-items", "--transact-items",
                json.dumps(transfer(accounts, "bob", "alice", 10_000)))
    assert r.returncode != 0
    assert "TransactionCanceledException" in r.stderr
    assert "[ConditionalCheckFailed, None]" in r.stderr


def test_kill_9_mid_stream_keeps_every_acked_transaction_whole(tmp_path):
    """Transactions of three items (two pair items and a counter under one
    token) stream from two threads; the server is SIGKILLed mid-stream and
    restarted on the same data: every acknowledged transaction is wholly
    present, none is half there, and the indexes and counters agree."""
    server = DynarockServer("--db-path", str(tmp_path / "db"), "--throttling", "off")
    ddb = server.client()
    table = create_simple_table(ddb, "crash")
    acked = []
    stop = threading.Event()

    def writer(w):
        client = make_client(server.url)
        i = 0
        while not stop.is_set() and i < 5000:
            tid = f"w{w}-{i}"
            try:
                client.transact_write_items(TransactItems=[
                    put(table, {"pk": {"S": f"{tid}-a"}, "tid": {"S": tid}}),
                    put(table, {"pk": {"S": f"{tid}-b"}, "tid": {"S": tid}}),
                    {"Update": {"TableName": table, "Key": {"pk": {"S": f"count-{w}"}},
                                "UpdateExpression": "ADD n :one",
                                "ExpressionAttributeValues": {":one": {"N": "1"}}}}])
            except Exception:  # the kill: connection errors
                return
            acked.append(tid)
            i += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(2)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while len(acked) < 200 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.proc.send_signal(signal.SIGKILL)
    stop.set()
    for t in threads:
        t.join(timeout=30)
    server.stop()
    assert acked, "no transaction was acknowledged before the kill"

    server = DynarockServer("--db-path", str(tmp_path / "db"), "--throttling", "off")
    try:
        ddb = server.client()
        items = []
        for page in ddb.get_paginator("scan").paginate(TableName=table, ConsistentRead=True):
            items.extend(page["Items"])
        pairs = {}
        counts = {}
        for item in items:
            pk = item["pk"]["S"]
            if pk.startswith("count-"):
                counts[pk] = int(item["n"]["N"])
            else:
                pairs.setdefault(item["tid"]["S"], set()).add(pk[-1])
        for tid in acked:
            assert pairs.get(tid) == {"a", "b"}, f"acked transaction {tid} is not whole"
        assert all(sides == {"a", "b"} for sides in pairs.values()), "a half transaction"
        # Every committed transaction (acked or not) added one to its counter.
        for w in range(2):
            committed = sum(1 for tid in pairs if tid.startswith(f"w{w}-"))
            assert counts.get(f"count-{w}", 0) == committed
        assert extension(server.url, "WaitForIndexes")[0] == 200
        assert extension(server.url, "VerifyIndexes", {"TableName": table}) == (200, {})
    finally:
        server.stop()
