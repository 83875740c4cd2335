"""Test control over HTTP (docs/testing.md): a simulated clock that tests
advance (`dynarock serve --clock simulated`, the DescribeClock / AdvanceClock /
SetClock extensions, `dynarock clock`), and DynamoDB's failures on demand
(PutFaultRule and friends, `--fault-rules`), seen through real clients:
boto3 in standard and adaptive retry modes, its batch writer, and the
dynarock CLI. Each recipe of docs/testing.md is one test here."""

import json
import subprocess
import threading
import time

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import (create_simple_table, dynarock_bin, extension, unique_name, ACCOUNT,
                      REGION)

START = 1_700_000_000


def client(server, mode="standard", attempts=1):
    """A boto3 client of `server` making at most `attempts` attempts."""
    return boto3.client(
        "dynamodb", endpoint_url=server.url, region_name=REGION,
        aws_access_key_id="AKIDE2E", aws_secret_access_key="secret",
        config=Config(retries={"mode": mode, "total_max_attempts": attempts},
                      connect_timeout=5, read_timeout=60))


def ok(server, operation, body=None):
    status, out = extension(server.url, operation, body)
    assert status == 200, out
    return out


def put_rule(server, rule):
    return ok(server, "PutFaultRule", {"Rule": rule})["Rule"]


def rule_status(server, rule_id):
    rules = ok(server, "ListFaultRules")["Rules"]
    return next(r for r in rules if r["Id"] == rule_id)


@pytest.fixture
def sim(start_server):
    """A server on a simulated clock at START."""
    return start_server("--in-memory", f"--clock=simulated={START}")


# --- The clock ---------------------------------------------------------------

def test_a_simulated_clock_moves_only_when_told(sim):
    assert ok(sim, "DescribeClock") == {"Mode": "SIMULATED", "Now": START}
    ddb = client(sim)
    name = create_simple_table(ddb, unique_name())
    # Every time field comes from the engine's clock.
    created = ddb.describe_table(TableName=name)["Table"]["CreationDateTime"]
    assert created.timestamp() == START
    time.sleep(0.05)
    assert ok(sim, "DescribeClock")["Now"] == START
    assert ok(sim, "AdvanceClock", {"Seconds": 90.5}) == {"Mode": "SIMULATED",
                                                          "Now": START + 90.5}
    backup = ddb.create_backup(TableName=name, BackupName="bak")["BackupDetails"]
    assert backup["BackupCreationDateTime"].timestamp() == START + 90.5
    assert ok(sim, "SetClock", {"Now": START + 3600})["Now"] == START + 3600
    # The CLI moves the same clock.
    out = subprocess.run([str(dynarock_bin()), "clock", "advance", "60", "--endpoint", sim.url],
                         capture_output=True, text=True, check=True).stdout
    assert out == f"SIMULATED {START + 3660:.6f}\n"


def test_the_clock_never_goes_back_and_a_real_one_does_not_move(sim, server):
    status, out = extension(sim.url, "SetClock", {"Now": START - 1})
    assert status == 400 and out["__type"].endswith("ValidationException")
    assert "only moves forward" in out["message"]
    for body in ({"Seconds": 0}, {"Seconds": -5}, {"Seconds": 1e12}, {"Seconds": "1"}, {}):
        status, out = extension(sim.url, "AdvanceClock", body)
        assert status == 400 and out["__type"].endswith("ValidationException"), body
    assert ok(server, "DescribeClock")["Mode"] == "REAL"
    status, out = extension(server.url, "AdvanceClock", {"Seconds": 1})
    assert status == 400 and "real clock" in out["message"]
    cli = subprocess.run([str(dynarock_bin()), "clock", "advance", "1", "--endpoint", server.url],
                         capture_output=True, text=True)
    assert cli.returncode == 1 and "ValidationException" in cli.stderr


def test_recipe_ttl_expiry(sim):
    ddb = client(sim)
    name = create_simple_table(ddb, unique_name())
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    ddb.put_item(TableName=name, Item={"pk": {"S": "session"},
                                       "expires": {"N": str(START + 3600)}})
    ok(sim, "AdvanceClock", {"Seconds": 1800})
    assert "Item" in ddb.get_item(TableName=name, Key={"pk": {"S": "session"}})
    ok(sim, "AdvanceClock", {"Seconds": 3600})
    assert "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "session"}})


def test_recipe_stream_processing_after_a_day(sim):
    ddb = client(sim)
    streams = boto3.client("dynamodbstreams", endpoint_url=sim.url, region_name=REGION,
                           aws_access_key_id="AKIDE2E", aws_secret_access_key="secret")
    name = unique_name()
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     StreamSpecification={"StreamEnabled": True,
                                          "StreamViewType": "NEW_IMAGE"})
    arn = ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=iterator)["Records"]
    assert [r["dynamodb"]["ApproximateCreationDateTime"].timestamp() for r in records] == [START]
    # An iterator lasts 15 minutes; a record 24 hours.
    ok(sim, "AdvanceClock", {"Seconds": 16 * 60})
    with pytest.raises(ClientError) as e:
        streams.get_records(ShardIterator=iterator)
    assert e.value.response["Error"]["Code"] == "ExpiredIteratorException"
    ok(sim, "AdvanceClock", {"Seconds": 24 * 3600})
    fresh = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                       ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    assert streams.get_records(ShardIterator=fresh)["Records"] == []


def test_recipe_idempotent_transaction_retry(sim):
    ddb = client(sim)
    name = create_simple_table(ddb, unique_name())
    write = lambda value: ddb.transact_write_items(ClientRequestToken="order-1", TransactItems=[
        {"Put": {"TableName": name, "Item": {"pk": {"S": "o"}, "v": {"N": value}}}}])
    write("1")
    write("1")  # a retry within 10 minutes: accepted, not applied again
    with pytest.raises(ClientError) as e:
        write("2")
    assert e.value.response["Error"]["Code"] == "IdempotentParameterMismatchException"
    ok(sim, "AdvanceClock", {"Seconds": 601})
    write("2")  # the token expired: a new transaction
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "o"}})["Item"]["v"] == {"N": "2"}


# --- Fault injection ---------------------------------------------------------

def test_recipe_standard_retries_see_the_injected_throttle(server, table):
    rule = put_rule(server, {"Id": unique_name("throttle"),
                             "Match": {"Operations": ["PutItem"], "TableName": table},
                             "Effect": {"Error": "ProvisionedThroughputExceededException"},
                             "When": {"FirstN": 2}})
    try:
        out = client(server, "standard", 3).put_item(TableName=table, Item={"pk": {"S": "a"}})
        assert out["ResponseMetadata"]["RetryAttempts"] == 2
        assert rule_status(server, rule["Id"])["FiredCount"] == 2
        # Without retries the same throttle reaches the caller, as DynamoDB's
        # does: message, ThrottlingReasons, and nothing written.
        put_rule(server, {**{k: rule[k] for k in ("Id", "Match", "Effect")}, "When": {"FirstN": 1}})
        plain = client(server)
        bodies = []  # botocore 1.29 does not parse ThrottlingReasons
        plain.meta.events.register("after-call.dynamodb.PutItem",
                                   lambda http_response, **_: bodies.append(
                                       json.loads(http_response.content)))
        with pytest.raises(ClientError) as e:
            plain.put_item(TableName=table, Item={"pk": {"S": "b"}})
        err = e.value.response
        assert err["Error"]["Code"] == "ProvisionedThroughputExceededException"
        assert err["Error"]["Message"].startswith("Throughput exceeds the current capacity")
        assert bodies[-1]["ThrottlingReasons"] == [{
            "reason": "TableWriteKeyRangeThroughputExceeded",
            "resource": f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{table}"}]
        assert "Item" not in client(server).get_item(TableName=table, Key={"pk": {"S": "b"}})
        _, capacity = extension(server.url, "DescribeCapacity", {"TableName": table})
        assert capacity["InjectedFaults"] == {"ProvisionedThroughputExceededException": 3}
    finally:
        ok(server, "DeleteFaultRule", {"Id": rule["Id"]})


def test_adaptive_retries_back_off_and_succeed(server, table):
    rule = put_rule(server, {"Id": unique_name("adaptive"),
                             "Match": {"Operations": ["GetItem"], "TableName": table},
                             "Effect": {"Error": "ThrottlingException"},
                             "When": {"FirstN": 3}})
    try:
        ddb = client(server, "adaptive", 5)
        out = ddb.get_item(TableName=table, Key={"pk": {"S": "x"}})
        assert out["ResponseMetadata"]["RetryAttempts"] == 3
        assert rule_status(server, rule["Id"])["MatchedCount"] == 4
    finally:
        ok(server, "DeleteFaultRule", {"Id": rule["Id"]})


def test_recipe_batch_writer_resends_unprocessed_items(server, table):
    rule = put_rule(server, {"Id": unique_name("unprocessed"),
                             "Match": {"Operations": ["BatchWriteItem"], "TableName": table,
                                       "KeyPrefix": {"AttributeName": "pk", "Prefix": "odd"}},
                             "Effect": {"Unprocessed": True}, "When": {"FirstN": 1}})
    try:
        ddb = client(server)
        out = ddb.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": {"S": f"{'odd' if i % 2 else 'even'}-{i}"}}}}
            for i in range(4)]})
        assert out["UnprocessedItems"] == {table: [
            {"PutRequest": {"Item": {"pk": {"S": "odd-1"}}}},
            {"PutRequest": {"Item": {"pk": {"S": "odd-3"}}}}]}
        assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "odd-1"}})
        assert "Item" in ddb.get_item(TableName=table, Key={"pk": {"S": "even-2"}})
        # boto3's batch writer resends what comes back unprocessed.
        put_rule(server, {**{k: rule[k] for k in ("Id", "Match", "Effect")},
                          "When": {"EveryNth": 2}})
        t = boto3.resource("dynamodb", endpoint_url=server.url, region_name=REGION,
                           aws_access_key_id="AKIDE2E",
                           aws_secret_access_key="secret").Table(table)
        with t.batch_writer() as batch:
            for i in range(60):
                batch.put_item(Item={"pk": f"odd-w{i}"})
        scanned = ddb.scan(TableName=table, Select="COUNT",
                           ScanFilter={"pk": {"AttributeValueList": [{"S": "odd-w"}],
                                              "ComparisonOperator": "BEGINS_WITH"}})
        assert scanned["Count"] == 60
        assert rule_status(server, rule["Id"])["FiredCount"] >= 1
    finally:
        ok(server, "DeleteFaultRule", {"Id": rule["Id"]})


def test_a_conflict_on_one_action_cancels_the_transaction(server, table):
    rule = put_rule(server, {"Id": unique_name("conflict"),
                             "Match": {"Operations": ["TransactWriteItems"],
                                       "Key": {"pk": {"S": "b"}}},
                             "Effect": {"Error": "TransactionCanceledException",
                                        "CancellationReason": "TransactionConflict"}})
    try:
        ddb = client(server)
        with pytest.raises(ClientError) as e:
            ddb.transact_write_items(TransactItems=[
                {"Put": {"TableName": table, "Item": {"pk": {"S": "a"}}}},
                {"Put": {"TableName": table, "Item": {"pk": {"S": "b"}}}}])
        err = e.value.response
        assert err["Error"]["Code"] == "TransactionCanceledException"
        assert [r["Code"] for r in err["CancellationReasons"]] == ["None", "TransactionConflict"]
        assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "a"}})
    finally:
        ok(server, "DeleteFaultRule", {"Id": rule["Id"]})


def test_server_errors_are_5xx_and_take_no_effect(server, table):
    ddb = client(server)
    for error, status in (("InternalServerError", 500), ("ServiceUnavailable", 503)):
        rule = put_rule(server, {"Id": unique_name("5xx"),
                                 "Match": {"Operations": ["PutItem"], "TableName": table},
                                 "Effect": {"Error": error}})
        try:
            with pytest.raises(ClientError) as e:
                ddb.put_item(TableName=table, Item={"pk": {"S": error}})
            assert e.value.response["Error"]["Code"] == error
            assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == status
        finally:
            ok(server, "DeleteFaultRule", {"Id": rule["Id"]})
        assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": error}})


def test_latency_holds_no_server_thread(start_server):
    s = start_server("--in-memory", "--threads", "1")
    ddb = client(s)
    name = create_simple_table(ddb, unique_name())
    put_rule(s, {"Id": "slow", "Match": {"Operations": ["GetItem"]},
                 "Effect": {"LatencyMillis": 5000}})
    slow = threading.Thread(target=lambda: ddb.get_item(TableName=name, Key={"pk": {"S": "a"}}))
    slow.start()
    # The one server thread answers other calls while the GetItem waits.
    deadline = time.monotonic() + 30
    while rule_status(s, "slow")["MatchedCount"] == 0:
        assert time.monotonic() < deadline, "the GetItem never reached the server"
        time.sleep(0.01)
    other = client(s)
    assert other.describe_table(TableName=name)["Table"]["TableName"] == name
    assert slow.is_alive()
    slow.join()


def test_fault_rules_file_at_start(start_server, tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"Rules": [{
        "Id": "from-file", "Match": {"Operations": ["ListTables"]},
        "Effect": {"Error": "RequestLimitExceeded"}}]}))
    s = start_server("--in-memory", "--fault-rules", str(rules))
    with pytest.raises(ClientError) as e:
        client(s).list_tables()
    assert e.value.response["Error"]["Code"] == "RequestLimitExceeded"
    assert [r["Id"] for r in ok(s, "ListFaultRules")["Rules"]] == ["from-file"]
    ok(s, "ClearFaultRules")
    assert client(s).list_tables()["TableNames"] == []

    rules.write_text('{"Rules": [{"Effect": {"Error": "NoSuchError"}}]}')
    bad = subprocess.run([str(dynarock_bin()), "serve", "--in-memory", "--port", "0",
                          "--fault-rules", str(rules)], capture_output=True, text=True,
                         timeout=30)
    assert bad.returncode == 1 and "unknown Error NoSuchError" in bad.stderr


@pytest.mark.parametrize("rule, message", [
    ({"Effect": {}}, "exactly one of Error, Unprocessed and LatencyMillis"),
    ({"Effect": {"Error": "ValidationException"}}, "unknown Error ValidationException"),
    ({"Match": {"Operations": ["NoSuchOperation"]}, "Effect": {"LatencyMillis": 5}},
     "unknown operation NoSuchOperation"),
    ({"Effect": {"LatencyMillis": 3_600_000}}, "LatencyMillis must be between 1 and 60000"),
    ({"Effect": {"Error": "ThrottlingException"}, "When": {"Probability": 2}}, "Probability"),
    ({"Effect": {"Error": "ThrottlingException"}, "Whenever": {}}, "unknown member Whenever"),
    ({"Effect": {"Unprocessed": True}, "Match": {"Operations": ["PutItem"]}},
     "BatchWriteItem and BatchGetItem"),
    ("not an object", 'PutFaultRule takes {"Rule": {...}}'),
])
def test_bad_rules_get_a_validation_error(server, rule, message):
    status, out = extension(server.url, "PutFaultRule", {"Rule": rule})
    assert status == 400 and out["__type"].endswith("ValidationException")
    assert message in out["message"]
    status, out = extension(server.url, "DeleteFaultRule", {"Id": "no-such-rule"})
    assert status == 400 and out["__type"].endswith("ResourceNotFoundException")
