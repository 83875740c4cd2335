"""A global table's settings across its replicas, end to end with boto3 (two
clients of one access key signed for two Regions): a replica created with
its own read capacity (ProvisionedThroughputOverride, and one for its GSI),
shown in Replicas; a GSI created on the replica appearing on the source and
filled there; write capacity and Time to Live changed on one replica reaching
the other (docs/global-tables.md, "Settings across replicas")."""

from conftest import unique_name
from test_global_tables import regions, wait_for  # noqa: F401 (regions: a fixture)


def status(client, table):
    return client.describe_table(TableName=table)["Table"]["TableStatus"]


def all_active(east, west, table):
    def check():
        e = east.describe_table(TableName=table)["Table"]
        w = west.describe_table(TableName=table)["Table"]
        return all(d["TableStatus"] == "ACTIVE"
                   and all(r["ReplicaStatus"] == "ACTIVE" for r in d.get("Replicas", []))
                   and all(g["IndexStatus"] == "ACTIVE"
                           for g in d.get("GlobalSecondaryIndexes", []))
                   for d in (e, w))
    return wait_for(check)


def test_overrides_and_synchronized_settings(regions):
    east, west = regions
    table = unique_name("settings")
    east.create_table(
        TableName=table,
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        ProvisionedThroughput={"ReadCapacityUnits": 20, "WriteCapacityUnits": 5},
        GlobalSecondaryIndexes=[{
            "IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 10, "WriteCapacityUnits": 5}}])
    assert wait_for(lambda: status(east, table) == "ACTIVE")
    east.put_item(TableName=table, Item={"pk": {"S": "a"}, "h": {"S": "x"}})

    # A replica with its own read capacity, for the table and its GSI.
    out = east.update_table(TableName=table, ReplicaUpdates=[{"Create": {
        "RegionName": "us-west-2",
        "ProvisionedThroughputOverride": {"ReadCapacityUnits": 3},
        "GlobalSecondaryIndexes": [{"IndexName": "byG",
                                    "ProvisionedThroughputOverride": {"ReadCapacityUnits": 2}}]}}])
    replica = out["TableDescription"]["Replicas"][0]
    assert replica["ProvisionedThroughputOverride"] == {"ReadCapacityUnits": 3}
    assert replica["GlobalSecondaryIndexes"] == [
        {"IndexName": "byG", "ProvisionedThroughputOverride": {"ReadCapacityUnits": 2}}]
    assert all_active(east, west, table)
    w = west.describe_table(TableName=table)["Table"]
    assert w["ProvisionedThroughput"]["ReadCapacityUnits"] == 3
    assert w["ProvisionedThroughput"]["WriteCapacityUnits"] == 5
    assert w["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"] == 2
    assert "ProvisionedThroughputOverride" not in w["Replicas"][0]

    # A GSI created on the replica appears on the source, filled from its items.
    west.update_table(
        TableName=table,
        AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "byH", "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"},
            "ProvisionedThroughput": {"ReadCapacityUnits": 4, "WriteCapacityUnits": 5}}}])
    assert "byH" in [g["IndexName"] for g in
                     east.describe_table(TableName=table)["Table"]["GlobalSecondaryIndexes"]]
    assert all_active(east, west, table)
    found = east.query(TableName=table, IndexName="byH",
                       KeyConditionExpression="h = :h",
                       ExpressionAttributeValues={":h": {"S": "x"}})
    assert [i["pk"]["S"] for i in found["Items"]] == ["a"]

    # Write units changed on the source reach the replica, whose read units stay.
    east.update_table(TableName=table,
                      ProvisionedThroughput={"ReadCapacityUnits": 20, "WriteCapacityUnits": 7})
    w = west.describe_table(TableName=table)["Table"]
    assert w["ProvisionedThroughput"]["WriteCapacityUnits"] == 7
    assert w["ProvisionedThroughput"]["ReadCapacityUnits"] == 3
    assert all_active(east, west, table)

    # Time to Live enabled on the replica is the source's too.
    west.update_time_to_live(TableName=table, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "expires"})
    ttl = east.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    assert ttl["TimeToLiveStatus"] in ("ENABLING", "ENABLED")
    assert ttl["AttributeName"] == "expires"
