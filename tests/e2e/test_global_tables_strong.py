"""Multi-Region strong consistency (MRSC) end to end with boto3: three
clients of one access key signed for us-east-1, us-east-2 and us-west-2;
UpdateTable MultiRegionConsistency STRONG with replicas (or a replica and a
GlobalTableWitnessUpdates witness); a write read back strongly consistent in
every Region at once; ReplicatedWriteConflictException; a Region cut off
from the majority; DynamoDB's refusals; the global table deleted.

The botocore of this machine predates MRSC (its UpdateTable has no
MultiRegionConsistency, and its parser drops DescribeTable's new members),
so UpdateTable and DescribeTable are sent as plain JSON requests (control);
the data plane goes through boto3."""

import time

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, extension, signed_call, unique_name

KEY = "AKIDSTRONG"


@pytest.fixture
def server(start_server):
    # A long MREC lag: nothing here may depend on it.
    s = start_server("--in-memory", "--replication-lag-ms", "600000")
    s.start()
    return s


class ControlError(Exception):
    def __init__(self, status, body):
        super().__init__(f"{status} {body}")
        self.code = body.get("__type", "").rsplit("#", 1)[-1]


def control(server, region, operation, body):
    """A DynamoDB_20120810 call signed (by name) for `region`: the decoded
    answer, or ControlError."""
    status, data = signed_call(server.url, "DynamoDB_20120810." + operation, body, KEY, region)
    if status != 200:
        raise ControlError(status, data)
    return data


def update(server, table, region="us-east-1", **members):
    return control(server, region, "UpdateTable", dict(TableName=table, **members))


def describe(server, table, region="us-east-1"):
    return control(server, region, "DescribeTable", {"TableName": table})["Table"]


def wait_active(server, table):
    """Until every replica is ACTIVE (a new replica table is CREATING for a
    moment, as any new table)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        replicas = describe(server, table).get("Replicas", [])
        if all(r["ReplicaStatus"] == "ACTIVE" for r in replicas):
            return
        time.sleep(0.02)
    raise AssertionError("replicas still not ACTIVE")


def clients(server):
    return [server.client(key=KEY, region=r) for r in ("us-east-1", "us-east-2", "us-west-2")]


def item(client, table, pk, consistent=True):
    got = client.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=consistent)
    return got.get("Item", {}).get("v", {}).get("S")


def put(client, table, pk, v):
    client.put_item(TableName=table, Item={"pk": {"S": pk}, "v": {"S": v}})


ERRORS = (ClientError, ControlError)


def code(excinfo):
    if isinstance(excinfo.value, ControlError):
        return excinfo.value.code
    return excinfo.value.response["Error"]["Code"]


def test_three_replicas_see_every_write_at_once(server):
    east, ohio, west = clients(server)
    table = create_simple_table(east, unique_name("mrsc"))
    out = update(server, table, MultiRegionConsistency="STRONG",
                 ReplicaUpdates=[{"Create": {"RegionName": "us-east-2"}},
                                            {"Create": {"RegionName": "us-west-2"}}])
    desc = out["TableDescription"]
    assert desc["MultiRegionConsistency"] == "STRONG"
    assert sorted(r["RegionName"] for r in desc["Replicas"]) == ["us-east-2", "us-west-2"]
    assert "GlobalTableWitnesses" not in desc
    wait_active(server, table)
    assert describe(server, table, "us-west-2")["MultiRegionConsistency"] == "STRONG"

    # No waiting: the write is in every Region when PutItem returns.
    put(east, table, "a", "one")
    assert item(ohio, table, "a") == "one"
    assert item(west, table, "a") == "one"
    put(west, table, "a", "two")
    assert item(east, table, "a") == "two"
    with pytest.raises(ERRORS) as e:   # the condition sees the latest version
        ohio.put_item(TableName=table, Item={"pk": {"S": "a"}, "v": {"S": "x"}},
                      ConditionExpression="attribute_not_exists(pk)")
    assert code(e) == "ConditionalCheckFailedException"

    # Transactions and TTL are refused on an MRSC replica.
    with pytest.raises(ERRORS) as e:
        east.transact_write_items(TransactItems=[
            {"Put": {"TableName": table, "Item": {"pk": {"S": "t"}}}}])
    assert code(e) == "ValidationException"
    with pytest.raises(ERRORS) as e:
        west.update_time_to_live(TableName=table, TimeToLiveSpecification={
            "Enabled": True, "AttributeName": "expires"})
    assert code(e) == "ValidationException"
    # No replica can be added; one alone cannot be deleted.
    for updates in ([{"Create": {"RegionName": "eu-west-1"}}],
                    [{"Delete": {"RegionName": "us-west-2"}}]):
        with pytest.raises(ERRORS) as e:
            update(server, table, ReplicaUpdates=updates)
        assert code(e) == "ValidationException"

    # A write of an item another Region is still modifying: us-east-2 is
    # 60 s from us-east-1 (SetReplicationLag), so us-east-1's write is in
    # flight that long.
    status, _ = extension(server.url, "SetReplicationLag", {
        "TableName": table, "RegionName": "us-east-2", "LagMillis": 60000}, key=KEY)
    assert status == 200
    put(east, table, "b", "east")
    with pytest.raises(ERRORS) as e:
        put(west, table, "b", "west")
    assert code(e) == "ReplicatedWriteConflictException"
    assert item(west, table, "b") == "east"
    put(west, table, "c", "west")   # another item is free

    # us-east-1 cut off from both others: it can neither write nor read
    # strongly consistent; eventually consistent reads are served; the
    # other two go on.
    for other in ("us-east-2", "us-west-2"):
        status, _ = extension(server.url, "PartitionRegions",
                              {"RegionNames": ["us-east-1", other]}, key=KEY)
        assert status == 200
    with pytest.raises(ERRORS) as e:
        put(east, table, "d", "east")
    assert code(e) == "ServiceUnavailable"
    with pytest.raises(ERRORS) as e:
        item(east, table, "a")
    assert code(e) == "ServiceUnavailable"
    assert item(east, table, "a", consistent=False) == "two"
    put(ohio, table, "d", "ohio")
    assert item(west, table, "d") == "ohio"
    status, _ = extension(server.url, "HealRegions",
                          {"RegionNames": ["us-east-1", "us-west-2"]}, key=KEY)
    assert status == 200
    assert item(east, table, "d") == "ohio"

    # Two replicas deleted: the last one is a single-Region table.
    out = update(server, table, ReplicaUpdates=[
        {"Delete": {"RegionName": "us-east-2"}}, {"Delete": {"RegionName": "us-west-2"}}])
    assert out["TableDescription"].get("MultiRegionConsistency") != "STRONG"
    deadline = time.monotonic() + 10   # the replicas are DELETING for a moment
    while "Replicas" in describe(server, table) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert "Replicas" not in describe(server, table)
    assert "MultiRegionConsistency" not in describe(server, table)
    assert item(east, table, "d") == "ohio"


def test_two_replicas_and_a_witness(server):
    east, ohio, west = clients(server)
    table = create_simple_table(east, unique_name("mrsc"))
    out = update(server, table, MultiRegionConsistency="STRONG",
                 ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}],
                            GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-east-2"}}])
    desc = out["TableDescription"]
    assert [r["RegionName"] for r in desc["Replicas"]] == ["us-west-2"]
    assert desc["GlobalTableWitnesses"] == [{"RegionName": "us-east-2", "WitnessStatus": "ACTIVE"}]
    wait_active(server, table)
    put(west, table, "a", "one")
    assert item(east, table, "a") == "one"
    # The witness holds no table.
    with pytest.raises(ERRORS) as e:
        ohio.describe_table(TableName=table)
    assert code(e) == "ResourceNotFoundException"
    out = update(server, table,
                            ReplicaUpdates=[{"Delete": {"RegionName": "us-west-2"}}],
                            GlobalTableWitnessUpdates=[{"Delete": {"RegionName": "us-east-2"}}])
    assert "GlobalTableWitnesses" not in out["TableDescription"]
    assert out["TableDescription"].get("MultiRegionConsistency") != "STRONG"


def test_refusals(server):
    east, _, _ = clients(server)
    table = create_simple_table(east, unique_name("mrsc"))
    bad = [
        # two Regions only
        dict(ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}]),
        # a Region without MRSC
        dict(ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}},
                             {"Create": {"RegionName": "sa-east-1"}}]),
        # the witness in a replica's Region
        dict(ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}],
             GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-west-2"}}]),
    ]
    for extra in bad:
        with pytest.raises(ERRORS) as e:
            update(server, table, MultiRegionConsistency="STRONG", **extra)
        assert code(e) == "ValidationException", extra
    # A witness without STRONG.
    with pytest.raises(ERRORS) as e:
        update(server, table,
                          ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}],
                          GlobalTableWitnessUpdates=[{"Create": {"RegionName": "us-east-2"}}])
    assert code(e) == "ValidationException"
    # A table with items.
    put(east, table, "a", "one")
    with pytest.raises(ERRORS) as e:
        update(server, table, MultiRegionConsistency="STRONG",
                          ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}},
                                          {"Create": {"RegionName": "us-east-2"}}])
    assert code(e) == "ValidationException"
    assert "Replicas" not in describe(server, table)
    # Not an enum value.
    with pytest.raises(ERRORS) as e:
        update(server, table, MultiRegionConsistency="MAYBE",
                          ReplicaUpdates=[{"Create": {"RegionName": "us-west-2"}}])
    assert code(e) == "ValidationException"
