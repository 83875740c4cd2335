"""ReturnConsumedCapacity through boto3 against a real `dynarock serve`: the
exact units of every data operation with TOTAL and INDEXES (the developer
guide's worked examples), NONE and absent, batches as one entry per table,
index reads and writes listed by index name, and no ConsumedCapacity on
errors."""

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name


def sized(pk, size, sk=None):
    """An item of exactly `size` bytes by DynamoDB's rules (string attributes:
    name length + value length), padded with attribute "d"."""
    item = {"pk": {"S": pk}}
    used = len("pk") + len(pk)
    if sk is not None:
        item["sk"] = {"S": sk}
        used += len("sk") + len(sk)
    item["d"] = {"S": "x" * (size - used - len("d"))}
    return item


@pytest.fixture
def ranged(ddb):
    return create_simple_table(ddb, unique_name("cap"), range_key="S")


def key(pk, sk="s"):
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def test_none_and_absent_return_nothing(ddb, table):
    out = ddb.put_item(TableName=table, Item=sized("a", 100))
    assert "ConsumedCapacity" not in out
    out = ddb.get_item(TableName=table, Key={"pk": {"S": "a"}}, ReturnConsumedCapacity="NONE")
    assert "ConsumedCapacity" not in out


def test_get_item_rounds_up_to_4kb(ddb, table):
    ddb.put_item(TableName=table, Item=sized("a", 4096))
    ddb.put_item(TableName=table, Item=sized("b", 4097))
    cases = [("a", True, 1.0), ("a", False, 0.5), ("b", True, 2.0), ("b", False, 1.0),
             ("missing", True, 1.0), ("missing", False, 0.5)]
    for pk, consistent, units in cases:
        out = ddb.get_item(TableName=table, Key={"pk": {"S": pk}}, ConsistentRead=consistent,
                           ReturnConsumedCapacity="TOTAL")
        assert out["ConsumedCapacity"] == {"TableName": table, "CapacityUnits": units}, pk
    # A projection costs the same.
    out = ddb.get_item(TableName=table, Key={"pk": {"S": "b"}}, ConsistentRead=True,
                       ProjectionExpression="pk", ReturnConsumedCapacity="INDEXES")
    assert out["Item"] == {"pk": {"S": "b"}}
    assert out["ConsumedCapacity"] == {"TableName": table, "CapacityUnits": 2.0,
                                       "Table": {"CapacityUnits": 2.0}}


def test_writes(ddb, table):
    def units(out):
        return out["ConsumedCapacity"]["CapacityUnits"]

    # The guide: a 3 KB item costs 3 WCU even when 300 B of it change.
    assert units(ddb.put_item(TableName=table, Item=sized("a", 3 * 1024),
                              ReturnConsumedCapacity="TOTAL")) == 3.0
    assert units(ddb.update_item(TableName=table, Key={"pk": {"S": "a"}},
                                 UpdateExpression="SET d = :d",
                                 ExpressionAttributeValues={":d": {"S": "y" * 300}},
                                 ReturnConsumedCapacity="TOTAL")) == 3.0
    # Now about 300 B: a put over it costs the bigger of the two.
    assert units(ddb.put_item(TableName=table, Item=sized("a", 2500),
                              ReturnConsumedCapacity="TOTAL")) == 3.0
    assert units(ddb.update_item(TableName=table, Key={"pk": {"S": "new"}},
                                 UpdateExpression="SET d = :d",
                                 ExpressionAttributeValues={":d": {"S": "y" * 1500}},
                                 ReturnConsumedCapacity="TOTAL")) == 2.0
    assert units(ddb.delete_item(TableName=table, Key={"pk": {"S": "a"}},
                                 ReturnConsumedCapacity="TOTAL")) == 3.0
    out = ddb.delete_item(TableName=table, Key={"pk": {"S": "a"}},
                          ReturnConsumedCapacity="INDEXES")
    assert out["ConsumedCapacity"] == {"TableName": table, "CapacityUnits": 1.0,
                                       "Table": {"CapacityUnits": 1.0}}


def test_failed_condition_has_no_consumed_capacity(ddb, table):
    ddb.put_item(TableName=table, Item=sized("a", 100))
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table, Item=sized("a", 100),
                     ConditionExpression="attribute_not_exists(pk)",
                     ReturnConsumedCapacity="TOTAL")
    assert e.value.response["Error"]["Code"] == "ConditionalCheckFailedException"
    assert "ConsumedCapacity" not in e.value.response


def test_query_sums_the_items_read_and_rounds_once(ddb, ranged):
    # The guide's example: 40.8 KB read = 11 units strongly consistent.
    total = 40 * 1024 + 8 * 1024 // 10
    for i in range(9):
        ddb.put_item(TableName=ranged, Item=sized("p", 4096, sk=f"s{i}"))
    ddb.put_item(TableName=ranged, Item=sized("p", total - 9 * 4096, sk="z"))
    common = dict(TableName=ranged, KeyConditionExpression="pk = :p",
                  ExpressionAttributeValues={":p": {"S": "p"}})
    out = ddb.query(ConsistentRead=True, ReturnConsumedCapacity="TOTAL", **common)
    assert out["ConsumedCapacity"] == {"TableName": ranged, "CapacityUnits": 11.0}
    out = ddb.query(ReturnConsumedCapacity="TOTAL", **common)
    assert out["ConsumedCapacity"]["CapacityUnits"] == 5.5
    # Select COUNT, a projection and a filter that drops everything: the same.
    out = ddb.query(Select="COUNT", ReturnConsumedCapacity="TOTAL", **common)
    assert out["ConsumedCapacity"]["CapacityUnits"] == 5.5
    out = ddb.query(ProjectionExpression="sk", ReturnConsumedCapacity="TOTAL", **common)
    assert out["ConsumedCapacity"]["CapacityUnits"] == 5.5
    filtered = dict(common, FilterExpression="d = :none",
                    ExpressionAttributeValues={":p": {"S": "p"}, ":none": {"S": "-"}})
    out = ddb.query(ReturnConsumedCapacity="INDEXES", **filtered)
    assert out["Count"] == 0 and out["ScannedCount"] == 10
    assert out["ConsumedCapacity"] == {"TableName": ranged, "CapacityUnits": 5.5,
                                       "Table": {"CapacityUnits": 5.5}}


def provisioned_table(ddb, rcu=5, wcu=5):
    """A PROVISIONED table keyed on pk: one partition at 5 / 5."""
    name = unique_name("prov")
    ddb.create_table(TableName=name, KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     ProvisionedThroughput={"ReadCapacityUnits": rcu,
                                            "WriteCapacityUnits": wcu})
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    return name


def test_scan_charges_items_read_not_returned(ddb):
    # One partition: the items read are summed and rounded once.
    table = provisioned_table(ddb)
    for i in range(4):
        ddb.put_item(TableName=table, Item=sized(f"p{i}", 2048))
    out = ddb.scan(TableName=table, ConsistentRead=True, FilterExpression="d = :none",
                   ExpressionAttributeValues={":none": {"S": "-"}},
                   ReturnConsumedCapacity="TOTAL")
    assert out["Count"] == 0 and out["ScannedCount"] == 4
    assert out["ConsumedCapacity"] == {"TableName": table, "CapacityUnits": 2.0}
    out = ddb.scan(TableName=table, Limit=1, ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"]["CapacityUnits"] == 0.5


def test_scan_reads_every_partition_of_a_new_on_demand_table(ddb, table):
    # As DynamoDB answers (Alternator's test_scan_consumed_capacity): four
    # partitions, each read rounded on its own, at least one unit.
    ddb.put_item(TableName=table, Item=sized("a", 100))
    out = ddb.scan(TableName=table, ConsistentRead=True, ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"]["CapacityUnits"] == 4.0
    out = ddb.scan(TableName=table, ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"]["CapacityUnits"] == 2.0
    out = ddb.query(TableName=table, KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": "a"}}, ConsistentRead=True,
                    ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"]["CapacityUnits"] == 1.0
    # Parallel Scan: two segments of two partitions each.
    units = [ddb.scan(TableName=table, Segment=s, TotalSegments=2, ConsistentRead=True,
                      ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]["CapacityUnits"]
             for s in range(2)]
    assert units == [2.0, 2.0]


def test_batch_get_rounds_each_item(ddb, ranged, table):
    # The guide: 1.5 KB + 6.5 KB = 4 KB + 8 KB = 3 units.
    ddb.put_item(TableName=ranged, Item=sized("a", 1536, sk="s"))
    ddb.put_item(TableName=ranged, Item=sized("b", 6656, sk="s"))
    out = ddb.batch_get_item(RequestItems={
        ranged: {"Keys": [key("a"), key("b")], "ConsistentRead": True},
        table: {"Keys": [{"pk": {"S": "missing"}}]}}, ReturnConsumedCapacity="TOTAL")
    assert sorted(out["ConsumedCapacity"], key=lambda c: c["TableName"] == table) == [
        {"TableName": ranged, "CapacityUnits": 3.0},
        {"TableName": table, "CapacityUnits": 0.5}]


def test_batch_write_rounds_each_request(ddb, ranged):
    ddb.put_item(TableName=ranged, Item=sized("old", 3000, sk="s"))
    out = ddb.batch_write_item(RequestItems={ranged: [
        {"PutRequest": {"Item": sized("a", 1536, sk="s")}},
        {"PutRequest": {"Item": sized("b", 512, sk="s")}},
        {"DeleteRequest": {"Key": key("old")}}]}, ReturnConsumedCapacity="INDEXES")
    assert out["ConsumedCapacity"] == [{"TableName": ranged, "CapacityUnits": 6.0,
                                        "Table": {"CapacityUnits": 6.0}}]


@pytest.fixture
def indexed(ddb):
    name = unique_name("capidx")
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": "S"}
                              for a in ("pk", "sk", "g", "l")],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "byG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]}}],
        LocalSecondaryIndexes=[{
            "IndexName": "byL",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    ddb.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    return name


def test_index_writes_are_listed_by_index(ddb, indexed):
    item = {**key("a"), "g": {"S": "g1"}, "l": {"S": "l1"}, "note": {"S": "n"},
            "extra": {"S": "o"}}
    out = ddb.put_item(TableName=indexed, Item=item, ReturnConsumedCapacity="INDEXES")
    assert out["ConsumedCapacity"] == {
        "TableName": indexed, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
        "GlobalSecondaryIndexes": {"byG": {"CapacityUnits": 1.0}},
        "LocalSecondaryIndexes": {"byL": {"CapacityUnits": 1.0}}}

    def update(expression, value):
        return ddb.update_item(TableName=indexed, Key=key("a"), UpdateExpression=expression,
                               ExpressionAttributeValues={":v": {"S": value}},
                               ReturnConsumedCapacity="INDEXES")["ConsumedCapacity"]

    # The GSI key changes: a delete plus a put on the GSI.
    assert update("SET g = :v", "g2") == {
        "TableName": indexed, "CapacityUnits": 3.0, "Table": {"CapacityUnits": 1.0},
        "GlobalSecondaryIndexes": {"byG": {"CapacityUnits": 2.0}}}
    # No index attribute changes: no index listed; TOTAL sums the same.
    assert update("SET extra = :v", "p") == {
        "TableName": indexed, "CapacityUnits": 1.0, "Table": {"CapacityUnits": 1.0}}
    out = ddb.update_item(TableName=indexed, Key=key("a"), UpdateExpression="SET note = :v",
                          ExpressionAttributeValues={":v": {"S": "m"}},
                          ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"] == {"TableName": indexed, "CapacityUnits": 2.0}


def test_index_reads_are_listed_under_the_index(ddb, indexed):
    ddb.put_item(TableName=indexed, Item={**key("a"), "g": {"S": "g1"}, "l": {"S": "l1"}})
    out = ddb.query(TableName=indexed, IndexName="byL", KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": "a"}},
                    ReturnConsumedCapacity="INDEXES")
    assert out["Count"] == 1
    assert out["ConsumedCapacity"] == {
        "TableName": indexed, "CapacityUnits": 0.5, "Table": {"CapacityUnits": 0.0},
        "LocalSecondaryIndexes": {"byL": {"CapacityUnits": 0.5}}}
    # GSI reads are eventually consistent: 0.5 whether or not the entry has
    # arrived yet (it is well under 4 KB).
    out = ddb.query(TableName=indexed, IndexName="byG", KeyConditionExpression="g = :g",
                    ExpressionAttributeValues={":g": {"S": "g1"}},
                    ReturnConsumedCapacity="INDEXES")
    assert out["ConsumedCapacity"] == {
        "TableName": indexed, "CapacityUnits": 0.5, "Table": {"CapacityUnits": 0.0},
        "GlobalSecondaryIndexes": {"byG": {"CapacityUnits": 0.5}}}
    # A Scan of a new on-demand GSI reads its four partitions: 4 x 0.5.
    out = ddb.scan(TableName=indexed, IndexName="byG", ReturnConsumedCapacity="TOTAL")
    assert out["ConsumedCapacity"] == {"TableName": indexed, "CapacityUnits": 2.0}
