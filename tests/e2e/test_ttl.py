"""Time to Live end to end: boto3's update_time_to_live / describe_time_to_live
with DynamoDB's errors, expired items deleted by the sweep (the
DynamoRock_20251121.RunTimeToLiveSweep extension and the background sweep on
the real clock) with their GSI entries, and the setting kept over a restart.
The AWS CLI's update-time-to-live / describe-time-to-live are in
test_aws_cli.py."""

import time

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name
from test_indexes import extension


def error_of(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def test_update_and_describe(ddb, table):
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "DISABLED"}
    spec = {"Enabled": True, "AttributeName": "expires"}
    out = ddb.update_time_to_live(TableName=table, TimeToLiveSpecification=spec)
    assert out["TimeToLiveSpecification"] == spec
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}

    update = ddb.update_time_to_live
    assert error_of(update, TableName=table, TimeToLiveSpecification=spec) == (
        "ValidationException", "TimeToLive is already enabled")
    assert error_of(update, TableName=table,
                    TimeToLiveSpecification={"Enabled": False, "AttributeName": "other"}) == (
        "ValidationException",
        "TimeToLive is active on a different AttributeName: current AttributeName is expires")
    off = {"Enabled": False, "AttributeName": "expires"}
    assert update(TableName=table, TimeToLiveSpecification=off)[
        "TimeToLiveSpecification"] == off
    assert error_of(update, TableName=table, TimeToLiveSpecification=off) == (
        "ValidationException", "TimeToLive is already disabled")
    assert ddb.describe_time_to_live(TableName=table)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "DISABLED"}

    missing = unique_name("missing")
    assert error_of(ddb.describe_time_to_live, TableName=missing) == (
        "ResourceNotFoundException",
        f"Requested resource not found: Table: {missing} not found")


def test_expired_items_are_read_until_the_sweep_deletes_them(start_server):
    # One sweep a day: only the extension sweeps during the test.
    server = start_server("--in-memory", "--ttl-sweep-interval-ms", "86400000")
    ddb = server.client()
    name = unique_name("ttl")
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    ddb.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "exp"})
    now = int(time.time())
    values = {"expired": {"N": str(now - 60)}, "future": {"N": str(now + 3600)},
              "string": {"S": str(now - 60)},
              "ancient": {"N": str(now - 6 * 365 * 86400)}}
    for pk, exp in values.items():
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "g": {"S": "G"}, "exp": exp})

    # Past its expiry, not yet swept: read like any item.
    assert "Item" in ddb.get_item(TableName=name, Key={"pk": {"S": "expired"}})
    status, swept = extension(server.url, "RunTimeToLiveSweep", {"TableName": name})
    assert status == 200, swept
    assert swept == {"ScannedItems": 4, "DeletedItems": 1}
    assert "Item" not in ddb.get_item(TableName=name, Key={"pk": {"S": "expired"}},
                                      ConsistentRead=True)
    assert ddb.describe_table(TableName=name)["Table"]["ItemCount"] == 3
    assert extension(server.url, "WaitForIndexes")[0] == 200
    left = ddb.query(TableName=name, IndexName="byG", KeyConditionExpression="g = :g",
                     ExpressionAttributeValues={":g": {"S": "G"}})["Items"]
    assert sorted(i["pk"]["S"] for i in left) == ["ancient", "future", "string"]
    assert extension(server.url, "VerifyIndexes", {"TableName": name}) == (200, {})

    status, body = extension(server.url, "RunTimeToLiveSweep", {"TableName": "nope"})
    assert status == 400 and body["__type"].endswith("ResourceNotFoundException")


def test_background_sweep_on_the_real_clock(ddb, table):
    ddb.update_time_to_live(TableName=table, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "exp"})
    ddb.put_item(TableName=table, Item={"pk": {"S": "old"},
                                        "exp": {"N": str(int(time.time()) - 1)}})
    ddb.put_item(TableName=table, Item={"pk": {"S": "new"},
                                        "exp": {"N": str(int(time.time()) + 3600)}})
    # The shared server sweeps every second (the default), as requests
    # arrive; bounded wait, no timing asserted.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "old"}}):
            break
        time.sleep(0.1)
    assert "Item" not in ddb.get_item(TableName=table, Key={"pk": {"S": "old"}})
    assert "Item" in ddb.get_item(TableName=table, Key={"pk": {"S": "new"}})


def test_setting_survives_restart(start_server, tmp_path):
    db = tmp_path / "db"
    server = start_server("--db-path", str(db))
    ddb = server.client()
    name = create_simple_table(ddb, unique_name("ttl"))
    ddb.update_time_to_live(TableName=name, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "exp"})
    server.stop()
    assert server.returncode == 0
    server = start_server("--db-path", str(db))
    ddb = server.client()
    assert ddb.describe_time_to_live(TableName=name)["TimeToLiveDescription"] == {
        "TimeToLiveStatus": "ENABLED", "AttributeName": "exp"}
    # And the sweep still runs on it after the restart.
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"},
                                       "exp": {"N": str(int(time.time()) - 1)}})
    status, swept = extension(server.url, "RunTimeToLiveSweep", {"TableName": name})
    assert (status, swept["DeletedItems"]) == (200, 1)
