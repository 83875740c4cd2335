"""Global tables version 2017.11.29 (Legacy) end to end with boto3. By
default as DynamoDB answers today (no new legacy global table: CreateGlobalTable
refused, the others find none); with `serve --legacy-global-tables`, as an
account that still has them: two
clients of one access key signed for two Regions create the same empty table
with a NEW_AND_OLD_IMAGES stream, join them with CreateGlobalTable, and see
writes replicated both ways; DescribeGlobalTable, ListGlobalTables,
UpdateGlobalTable and the global table settings answer in DynamoDB's shapes,
with DynamoDB's error codes."""

import time

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name
from test_global_tables import item, wait_for

LAG_MS = 200


def create_table(client, name):
    client.create_table(
        TableName=name,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    client.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})


def code(excinfo):
    return excinfo.value.response["Error"]["Code"]


@pytest.fixture
def regions(start_server):
    server = start_server("--in-memory", "--replication-lag-ms", str(LAG_MS),
                          "--legacy-global-tables")
    server.start()
    return server.client(key="AKIDLEGACY", region="us-east-1"), \
        server.client(key="AKIDLEGACY", region="us-west-2")


def test_by_default_as_dynamodb_today(start_server):
    server = start_server("--in-memory")
    server.start()
    east, west = (server.client(key="AKIDNOLEGACY", region=r) for r in ("us-east-1", "us-west-2"))
    name = unique_name("legacy")
    create_table(east, name)
    create_table(west, name)
    with pytest.raises(ClientError) as e:
        east.create_global_table(GlobalTableName=name, ReplicationGroup=[
            {"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}])
    assert code(e) == "ValidationException"
    assert e.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: DynamoDB global tables version "
        "2017.11.29 is not supported. We recommend using DynamoDB global tables version "
        "2019.11.21, instead of version 2017.11.29 (Legacy).")
    for call in (lambda: east.describe_global_table(GlobalTableName=name),
                 lambda: east.describe_global_table_settings(GlobalTableName=name),
                 lambda: east.update_global_table(GlobalTableName=name, ReplicaUpdates=[
                     {"Create": {"RegionName": "eu-west-1"}}]),
                 lambda: east.update_global_table_settings(
                     GlobalTableName=name, GlobalTableBillingMode="PAY_PER_REQUEST")):
        with pytest.raises(ClientError) as e:
            call()
        assert code(e) == "GlobalTableNotFoundException"
    assert east.list_global_tables()["GlobalTables"] == []


def test_a_legacy_global_table(regions):
    east, west = regions
    name = unique_name("legacy")
    with pytest.raises(ClientError) as e:
        east.describe_global_table(GlobalTableName=name)
    assert code(e) == "GlobalTableNotFoundException"
    create_table(east, name)
    with pytest.raises(ClientError) as e:
        east.create_global_table(GlobalTableName=name, ReplicationGroup=[
            {"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}])
    assert code(e) == "TableNotFoundException"
    assert e.value.response["Error"]["Message"] == (
        f"Table not found: Table: '{name}' not found in region: 'us-west-2'.")
    create_table(west, name)

    out = east.create_global_table(GlobalTableName=name, ReplicationGroup=[
        {"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}])["GlobalTableDescription"]
    assert out["GlobalTableName"] == name
    assert out["GlobalTableArn"].startswith("arn:aws:dynamodb::")
    assert out["GlobalTableArn"].endswith(f":global-table/{name}")
    assert out["GlobalTableStatus"] in ("CREATING", "ACTIVE")
    assert out["ReplicationGroup"] == [{"RegionName": "us-east-1"}, {"RegionName": "us-west-2"}]
    assert west.describe_table(TableName=name)["Table"]["GlobalTableVersion"] == "2017.11.29"
    with pytest.raises(ClientError) as e:
        east.create_global_table(GlobalTableName=name,
                                 ReplicationGroup=[{"RegionName": "us-east-1"}])
    assert code(e) == "GlobalTableAlreadyExistsException"

    # Replication both ways after the lag, as 2019.11.21 tables replicate.
    east.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"S": "east"}})
    assert wait_for(lambda: item(west, name, "a") == "east")
    west.put_item(TableName=name, Item={"pk": {"S": "b"}, "v": {"S": "west"}})
    assert wait_for(lambda: item(east, name, "b") == "west")

    assert wait_for(lambda: west.describe_global_table(GlobalTableName=name)[
        "GlobalTableDescription"]["GlobalTableStatus"] == "ACTIVE")
    listed = east.list_global_tables(RegionName="us-west-2")["GlobalTables"]
    assert {"GlobalTableName": name, "ReplicationGroup": out["ReplicationGroup"]} in listed
    assert east.list_global_tables(RegionName="eu-west-1")["GlobalTables"] == []

    # Settings: read units per Region, write units everywhere; auto scaling refused.
    settings = east.update_global_table_settings(
        GlobalTableName=name, GlobalTableProvisionedWriteCapacityUnits=8,
        ReplicaSettingsUpdate=[{"RegionName": "us-west-2",
                                "ReplicaProvisionedReadCapacityUnits": 9}])
    west_settings = [r for r in settings["ReplicaSettings"] if r["RegionName"] == "us-west-2"][0]
    assert west_settings["ReplicaProvisionedReadCapacityUnits"] == 9
    assert west_settings["ReplicaProvisionedWriteCapacityUnits"] == 8
    assert west.describe_table(TableName=name)["Table"]["ProvisionedThroughput"][
        "ReadCapacityUnits"] == 9
    with pytest.raises(ClientError) as e:
        east.update_global_table_settings(
            GlobalTableName=name,
            GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate={"MinimumUnits": 1})
    assert code(e) == "ValidationException"
    assert "AutoScaling" in e.value.response["Error"]["Message"]
    described = east.describe_global_table_settings(GlobalTableName=name)
    assert [r["RegionName"] for r in described["ReplicaSettings"]] == ["us-east-1", "us-west-2"]

    # Removing a Region: its table stays, no longer replicated to.
    with pytest.raises(ClientError) as e:
        east.update_global_table(GlobalTableName=name,
                                 ReplicaUpdates=[{"Delete": {"RegionName": "eu-west-1"}}])
    assert code(e) == "ReplicaNotFoundException"
    out = east.update_global_table(GlobalTableName=name, ReplicaUpdates=[
        {"Delete": {"RegionName": "us-west-2"}}])["GlobalTableDescription"]
    assert out["ReplicationGroup"] == [{"RegionName": "us-east-1"}]
    assert "GlobalTableVersion" not in west.describe_table(TableName=name)["Table"]
    east.put_item(TableName=name, Item={"pk": {"S": "c"}, "v": {"S": "east"}})
    time.sleep(3 * LAG_MS / 1000)
    assert item(west, name, "c") is None


def test_a_2019_global_table_is_no_legacy_one(regions):
    east, _ = regions
    name = unique_name("current")
    create_table(east, name)
    east.update_table(TableName=name, ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    with pytest.raises(ClientError) as e:
        east.describe_global_table(GlobalTableName=name)
    assert code(e) == "GlobalTableNotFoundException"
