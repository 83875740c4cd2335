"""Global tables (version 2019.11.21) end to end with boto3: two clients of
the same access key signed for two Regions, a replica created with
UpdateTable ReplicaUpdates over existing items, DescribeTable's Replicas and
GlobalTableVersion in both Regions, writes replicated both ways after the
server's --replication-lag-ms, DynamoDB's refusals, and a replica deleted."""

import time

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name

LAG_MS = 300


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def item(client, table, pk):
    got = client.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=True)
    return got.get("Item", {}).get("v", {}).get("S")


@pytest.fixture
def regions(start_server):
    server = start_server("--in-memory", "--replication-lag-ms", str(LAG_MS))
    server.start()
    return server.client(key="AKIDGLOBAL", region="us-east-1"), \
        server.client(key="AKIDGLOBAL", region="us-west-2")


def test_a_replica_in_another_region(regions):
    east, west = regions
    table = create_simple_table(east, unique_name("global"))
    for pk in ("a", "b"):
        east.put_item(TableName=table, Item={"pk": {"S": pk}, "v": {"S": "east-" + pk}})
    # Not a global table yet: no Replicas, no GlobalTableVersion.
    assert "Replicas" not in east.describe_table(TableName=table)["Table"]
    with pytest.raises(ClientError) as e:
        west.describe_table(TableName=table)
    assert e.value.response["Error"]["Code"] == "ResourceNotFoundException"

    out = east.update_table(TableName=table,
                            ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    desc = out["TableDescription"]
    assert desc["GlobalTableVersion"] == "2019.11.21"
    assert [r["RegionName"] for r in desc["Replicas"]] == ["us-west-2"]
    assert desc["Replicas"][0]["ReplicaStatus"] in ("CREATING", "ACTIVE")

    def active():
        replicas = east.describe_table(TableName=table)["Table"]["Replicas"]
        return replicas[0]["ReplicaStatus"] == "ACTIVE"
    assert wait_for(active)
    # The replica: the same name, signed for the other Region, its items copied.
    west_desc = west.describe_table(TableName=table)["Table"]
    assert west_desc["TableArn"].startswith("arn:aws:dynamodb:us-west-2:")
    assert west_desc["GlobalTableVersion"] == "2019.11.21"
    assert [r["RegionName"] for r in west_desc["Replicas"]] == ["us-east-1"]
    assert item(west, table, "a") == "east-a"
    assert item(west, table, "b") == "east-b"

    # Writes go both ways, after the lag.
    start = time.monotonic()
    west.put_item(TableName=table, Item={"pk": {"S": "c"}, "v": {"S": "west-c"}})
    assert item(east, table, "c") is None or time.monotonic() - start >= LAG_MS / 1000
    assert wait_for(lambda: item(east, table, "c") == "west-c")
    assert time.monotonic() - start >= LAG_MS / 1000
    east.delete_item(TableName=table, Key={"pk": {"S": "a"}})
    assert wait_for(lambda: item(west, table, "a") is None)

    # Deleting the replica: the west table goes, the east one is alone again.
    out = east.update_table(TableName=table,
                            ReplicaUpdates=[{"Delete": {"RegionName": "us-west-2"}}])
    # DELETING until the west table is gone (the server's delete delay).
    assert out["TableDescription"]["Replicas"] == [
        {"RegionName": "us-west-2", "ReplicaStatus": "DELETING"}]
    assert wait_for(lambda: "Replicas" not in east.describe_table(TableName=table)["Table"])

    def gone():
        try:
            west.describe_table(TableName=table)
            return False
        except ClientError as err:
            return err.response["Error"]["Code"] == "ResourceNotFoundException"
    assert wait_for(gone)
    east.put_item(TableName=table, Item={"pk": {"S": "d"}, "v": {"S": "alone"}})
    assert item(east, table, "d") == "alone"


def test_refusals(regions):
    east, _ = regions
    table = create_simple_table(east, unique_name("global"))

    def refused(updates):
        with pytest.raises(ClientError) as e:
            east.update_table(TableName=table, ReplicaUpdates=updates)
        return e.value.response["Error"]

    err = refused([{"Create": {"RegionName": "us-east-1"}}])
    assert err["Code"] == "ValidationException"
    assert err["Message"] == ("Cannot add, delete, or update the local region through "
                              "ReplicaUpdates. Use CreateTable, DeleteTable, or "
                              "UpdateTable as required.")
    err = refused([{"Create": {"RegionName": "xx-nowhere-1"}}])
    assert err["Code"] == "ValidationException"
    err = refused([{"Delete": {"RegionName": "eu-west-1"}}])
    assert err["Code"] == "ValidationException"
    east.update_table(TableName=table, ReplicaUpdates=[{"Create": {"RegionName": "eu-west-1"}}])
    err = refused([{"Create": {"RegionName": "eu-west-1"}}])
    assert err["Code"] == "ValidationException"
    assert "already existed" in err["Message"]
    err = refused([{"Create": {"RegionName": "eu-west-2"}, "Delete": {"RegionName": "eu-west-1"}}])
    assert err["Code"] == "ValidationException"
