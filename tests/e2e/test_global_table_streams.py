"""Streams of global tables (version 2019.11.21) with boto3, as DynamoDB
behaves (ScyllaDB's test/alternator/test_global_tables.py, written and run
against DynamoDB; docs/global-tables.md "Streams"):
- adding a replica to a table without a stream enables one with
  NEW_AND_OLD_IMAGES, in every Region, and it carries old and new images;
- a table that already streams KEYS_ONLY keeps KEYS_ONLY and replicates;
- while the table is global its stream can be neither disabled nor changed;
- once its last replica is gone the stream stays, and may then be disabled."""

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name
from test_global_tables import wait_for


@pytest.fixture
def regions(start_server):
    server = start_server("--in-memory", "--replication-lag-ms", "0")
    server.start()
    return (server.client(key="AKIDSTREAMS", region="us-east-1"),
            server.client(key="AKIDSTREAMS", region="us-west-2"),
            server.client(key="AKIDSTREAMS", region="us-east-1", service="dynamodbstreams"))


def add_replica(client, table, region):
    client.update_table(TableName=table, ReplicaUpdates=[{"Create": {"RegionName": region}}])

    def active():
        replicas = client.describe_table(TableName=table)["Table"].get("Replicas", [])
        return any(r["RegionName"] == region and r["ReplicaStatus"] == "ACTIVE"
                   for r in replicas)
    assert wait_for(active)


def remove_replica(client, table, region):
    client.update_table(TableName=table, ReplicaUpdates=[{"Delete": {"RegionName": region}}])

    def gone():
        return "Replicas" not in client.describe_table(TableName=table)["Table"]
    assert wait_for(gone)


def stream_spec(client, table):
    return client.describe_table(TableName=table)["Table"].get("StreamSpecification")


def records(streams, arn):
    out = []
    for shard in streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"]:
        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                        ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
        out += streams.get_records(ShardIterator=it)["Records"]
    return out


def test_a_replica_enables_a_new_and_old_images_stream(regions):
    east, west, streams = regions
    table = create_simple_table(east, unique_name("gstream"))
    assert stream_spec(east, table) is None
    add_replica(east, table, "us-west-2")
    expected = {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"}
    assert stream_spec(east, table) == expected
    assert stream_spec(west, table) == expected

    east.put_item(TableName=table, Item={"pk": {"S": "k"}, "x": {"N": "1"}})
    east.update_item(TableName=table, Key={"pk": {"S": "k"}},
                     UpdateExpression="SET x = :v", ExpressionAttributeValues={":v": {"N": "2"}})
    arn = east.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    modify = [r["dynamodb"] for r in records(streams, arn) if r["eventName"] == "MODIFY"]
    assert len(modify) == 1
    assert modify[0]["OldImage"]["x"] == {"N": "1"}
    assert modify[0]["NewImage"]["x"] == {"N": "2"}


def test_a_keys_only_stream_stays_keys_only(regions):
    east, west, streams = regions
    table = unique_name("gkeys")
    east.create_table(
        TableName=table, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
    east.get_waiter("table_exists").wait(
        TableName=table, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    add_replica(east, table, "us-west-2")
    keys_only = {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"}
    assert stream_spec(east, table) == keys_only

    east.put_item(TableName=table, Item={"pk": {"S": "k"}, "from": {"S": "east"}})
    assert wait_for(lambda: "Item" in west.get_item(TableName=table, Key={"pk": {"S": "k"}}))
    arn = east.describe_table(TableName=table)["Table"]["LatestStreamArn"]
    inserts = [r["dynamodb"] for r in records(streams, arn) if r["eventName"] == "INSERT"]
    assert len(inserts) == 1
    assert "NewImage" not in inserts[0] and "OldImage" not in inserts[0]


def test_the_stream_of_a_global_table_cannot_change(regions):
    east, west, _ = regions
    table = create_simple_table(east, unique_name("gfixed"))
    add_replica(east, table, "us-west-2")
    for client in (east, west):
        with pytest.raises(ClientError) as e:
            client.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
        assert e.value.response["Error"]["Code"] == "ValidationException"
        assert e.value.response["Error"]["Message"] == (
            "One or more parameter values were invalid: Disabling Stream is not allowed "
            "for a Global Table replica.")
        with pytest.raises(ClientError) as e:
            client.update_table(TableName=table, StreamSpecification={
                "StreamEnabled": True, "StreamViewType": "KEYS_ONLY"})
        assert "already has an enabled stream" in e.value.response["Error"]["Message"]
    assert stream_spec(east, table)["StreamViewType"] == "NEW_AND_OLD_IMAGES"


def test_the_stream_stays_when_the_table_is_regional_again(regions):
    east, _, _ = regions
    table = create_simple_table(east, unique_name("gback"))
    add_replica(east, table, "us-west-2")
    remove_replica(east, table, "us-west-2")
    desc = east.describe_table(TableName=table)["Table"]
    assert "GlobalTableVersion" not in desc
    assert desc["StreamSpecification"] == {"StreamEnabled": True,
                                           "StreamViewType": "NEW_AND_OLD_IMAGES"}
    # Regional again: the stream may now be disabled (its ARN stays).
    east.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
    desc = east.describe_table(TableName=table)["Table"]
    assert "StreamSpecification" not in desc
    assert "LatestStreamArn" in desc
