"""Secondary indexes through boto3 against a real `dynarock serve`: a table
with a GSI and an LSI, Query on both with paging, the DynamoRock_20251121
WaitForIndexes / SetIndexLag extensions (stale GSI reads with a lag, none
after waiting), UpdateTable adding and deleting a GSI with backfill, and
DynamoDB's errors for index reads and index keys."""

import http.client
import json
import time
from urllib.parse import urlparse

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name

EXTENSION = "DynamoRock_20251121."


def extension(url, operation, body=None):
    """Calls a dynarock extension: no SDK sends its target."""
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", "/", body=json.dumps(body or {}), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": EXTENSION + operation,
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDE2E/20251121/us-east-1/"
                         "dynamodb/aws4_request, SignedHeaders=host, Signature=0"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data


def create_indexed_table(ddb, name):
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": a, "AttributeType": t} for a, t in
                              [("pk", "S"), ("sk", "N"), ("g", "S"), ("gs", "N"),
                               ("l", "S")]],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "byG",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                          {"AttributeName": "gs", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]}}],
        LocalSecondaryIndexes=[{
            "IndexName": "byL",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "l", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    ddb.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})


def item(pk, sk, g, gs, l="l"):
    return {"pk": {"S": pk}, "sk": {"N": str(sk)}, "g": {"S": g}, "gs": {"N": str(gs)},
            "l": {"S": l}, "note": {"S": "n"}, "secret": {"S": "s"}}


def query_all(ddb, **kwargs):
    """Every page of a Query, and the number of pages."""
    items, pages = [], 0
    while True:
        out = ddb.query(**kwargs)
        items += out["Items"]
        pages += 1
        if "LastEvaluatedKey" not in out:
            return items, pages
        kwargs["ExclusiveStartKey"] = out["LastEvaluatedKey"]


def test_query_gsi_and_lsi_with_paging(ddb, endpoint):
    name = unique_name("idx")
    create_indexed_table(ddb, name)
    for i in range(25):
        ddb.put_item(TableName=name, Item=item(f"p{i % 5}", i, "G" if i % 2 else "H", i,
                                               f"l{(i * 7) % 25:02d}"))
    status, _ = extension(endpoint, "WaitForIndexes")
    assert status == 200

    items, pages = query_all(ddb, TableName=name, IndexName="byG", Limit=4,
                             KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": {"S": "G"}})
    assert pages > 3
    assert [int(i["gs"]["N"]) for i in items] == list(range(1, 25, 2))
    # INCLUDE projection: keys and "note", never "secret".
    assert set(items[0]) == {"pk", "sk", "g", "gs", "note"}

    out = ddb.query(TableName=name, IndexName="byG", Limit=1,
                    KeyConditionExpression="g = :g AND gs > :n",
                    ExpressionAttributeValues={":g": {"S": "G"}, ":n": {"N": "10"}})
    assert set(out["LastEvaluatedKey"]) == {"pk", "sk", "g", "gs"}

    # LSI: strongly consistent, in l order, Select ALL_ATTRIBUTES fetches.
    items, pages = query_all(ddb, TableName=name, IndexName="byL", Limit=2,
                             ConsistentRead=True, KeyConditionExpression="pk = :p",
                             ExpressionAttributeValues={":p": {"S": "p0"}})
    assert pages == 3
    assert [i["l"]["S"] for i in items] == sorted(i["l"]["S"] for i in items)
    assert set(items[0]) == {"pk", "sk", "l"}
    out = ddb.query(TableName=name, IndexName="byL", Select="ALL_ATTRIBUTES",
                    KeyConditionExpression="pk = :p",
                    ExpressionAttributeValues={":p": {"S": "p0"}})
    assert out["Items"][0]["secret"] == {"S": "s"}

    # Parallel scan of the GSI covers it once.
    seen = []
    for segment in range(3):
        out = ddb.scan(TableName=name, IndexName="byG", Segment=segment, TotalSegments=3)
        seen += [i["sk"]["N"] for i in out["Items"]]
    assert sorted(seen, key=int) == [str(i) for i in range(25)]


def test_stale_gsi_read_with_a_lag_and_none_after_waiting(ddb, endpoint):
    name = unique_name("lag")
    create_indexed_table(ddb, name)
    status, _ = extension(endpoint, "SetIndexLag",
                          {"TableName": name, "IndexName": "byG", "LagMillis": 60000})
    assert status == 200
    ddb.put_item(TableName=name, Item=item("a", 1, "G", 1))
    query = dict(TableName=name, IndexName="byG", KeyConditionExpression="g = :g",
                 ExpressionAttributeValues={":g": {"S": "G"}})
    assert ddb.query(**query)["Count"] == 0  # the GSI has not seen the write
    # The base table and the (synchronous) LSI have.
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "a"}, "sk": {"N": "1"}})["Item"]
    assert ddb.query(TableName=name, IndexName="byL", KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": {"S": "a"}})["Count"] == 1
    status, _ = extension(endpoint, "WaitForIndexes")
    assert status == 200
    assert ddb.query(**query)["Count"] == 1
    status, stats = extension(endpoint, "DescribeIndexPropagation")
    assert status == 200 and stats["AppliedRecords"] >= 1
    # Back to the server's lag (0): visible within moments.
    extension(endpoint, "SetIndexLag", {"TableName": name, "IndexName": "byG", "LagMillis": -1})
    ddb.put_item(TableName=name, Item=item("b", 1, "G", 2))
    deadline = time.monotonic() + 5
    while ddb.query(**query)["Count"] < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ddb.query(**query)["Count"] == 2


def test_extensions_are_not_dynamodb_operations(endpoint):
    u = urlparse(endpoint)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
    conn.request("POST", "/", body="{}", headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810.WaitForIndexes"})
    response = conn.getresponse()
    assert response.status == 400
    assert "UnknownOperationException" in response.read().decode()
    conn.close()


def test_index_read_and_key_errors(ddb):
    name = unique_name("err")
    create_indexed_table(ddb, name)
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=name, IndexName="byG", ConsistentRead=True,
                  KeyConditionExpression="g = :g",
                  ExpressionAttributeValues={":g": {"S": "G"}})
    assert e.value.response["Error"]["Message"] == \
        "Consistent reads are not supported on global secondary indexes"
    with pytest.raises(ClientError) as e:
        ddb.query(TableName=name, IndexName="byG", Select="ALL_ATTRIBUTES",
                  KeyConditionExpression="g = :g",
                  ExpressionAttributeValues={":g": {"S": "G"}})
    assert "Select type ALL_ATTRIBUTES is not supported for global secondary index byG" \
        in e.value.response["Error"]["Message"]
    bad = item("a", 1, "G", 1)
    bad["gs"] = {"S": "one"}
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=name, Item=bad)
    assert e.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: Type mismatch for Index Key gs "
        "Expected: N Actual: S IndexName: byG")
    out = ddb.put_item(TableName=name, Item=item("a", 1, "G", 1),
                       ReturnItemCollectionMetrics="SIZE")
    assert out["ItemCollectionMetrics"] == {
        "ItemCollectionKey": {"pk": {"S": "a"}}, "SizeEstimateRangeGB": [0.0, 1.0]}


def test_update_table_adds_and_deletes_a_gsi(ddb, endpoint):
    name = unique_name("upd")
    create_indexed_table(ddb, name)
    for i in range(30):
        it = item(f"p{i}", i, "G", i)
        it["h"] = {"S": f"h{i % 3}"}
        ddb.put_item(TableName=name, Item=it)
    out = ddb.update_table(
        TableName=name, AttributeDefinitions=[{"AttributeName": "h", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "byH", "KeySchema": [{"AttributeName": "h", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}])
    assert [g["IndexName"] for g in out["TableDescription"]["GlobalSecondaryIndexes"]] == \
        ["byG", "byH"]
    ddb.put_item(TableName=name, Item={**item("new", 1, "G", 1), "h": {"S": "h0"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "p0"}, "sk": {"N": "0"}})
    # Wait as an SDK user would: until the table and the index are ACTIVE.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        table = ddb.describe_table(TableName=name)["Table"]
        if table["TableStatus"] == "ACTIVE" and all(
                g["IndexStatus"] == "ACTIVE" for g in table["GlobalSecondaryIndexes"]):
            break
        time.sleep(0.01)
    extension(endpoint, "WaitForIndexes")
    out = ddb.query(TableName=name, IndexName="byH", KeyConditionExpression="h = :h",
                    ExpressionAttributeValues={":h": {"S": "h0"}})
    assert out["Count"] == 10  # p3, p6, ..., p27 and "new"; not p0
    with pytest.raises(ClientError) as e:
        ddb.update_table(
            TableName=name, AttributeDefinitions=[{"AttributeName": "x", "AttributeType": "S"}],
            GlobalSecondaryIndexUpdates=[
                {"Create": {"IndexName": "byX", "KeySchema": [{"AttributeName": "x",
                                                              "KeyType": "HASH"}],
                            "Projection": {"ProjectionType": "ALL"}}},
                {"Delete": {"IndexName": "byG"}}])
    assert e.value.response["Error"]["Code"] == "LimitExceededException"
    ddb.update_table(TableName=name, GlobalSecondaryIndexUpdates=[{"Delete": {"IndexName": "byH"}}])
    gsis = ddb.describe_table(TableName=name)["Table"]["GlobalSecondaryIndexes"]
    assert [g["IndexName"] for g in gsis] == ["byG"]


def string_item_size(item):
    """DynamoDB's size of an item of strings and one-digit numbers: name bytes
    plus value bytes, a number of one significant digit being 2 bytes."""
    size = 0
    for name, value in item.items():
        (kind, v), = value.items()
        assert kind == "S" or (kind == "N" and len(v) == 1)
        size += len(name.encode()) + (len(v.encode()) if kind == "S" else 2)
    return size


def test_index_item_counts_and_sizes_are_live(ddb, endpoint):
    name = unique_name("cnt")
    create_indexed_table(ddb, name)
    items = [item("a", 1, "G", 1), item("a", 2, "H", 2), item("b", 3, "G", 3)]
    del items[2]["g"]  # not in byG (sparse), still in byL
    for it in items:
        ddb.put_item(TableName=name, Item=it)
    extension(endpoint, "WaitForIndexes", {"TableName": name})

    def counts():
        t = ddb.describe_table(TableName=name)["Table"]
        g, l = t["GlobalSecondaryIndexes"][0], t["LocalSecondaryIndexes"][0]
        return g["ItemCount"], g["IndexSizeBytes"], l["ItemCount"], l["IndexSizeBytes"]

    # Each entry counts its projected item plus DynamoDB's 100 bytes of
    # index overhead: byG holds the keys and "note", byL the keys.
    def projected(it, names):
        return string_item_size({k: v for k, v in it.items() if k in names}) + 100
    gsi = {"pk", "sk", "g", "gs", "note"}
    lsi = {"pk", "sk", "l"}
    assert counts() == (2, projected(items[0], gsi) + projected(items[1], gsi),
                        3, sum(projected(it, lsi) for it in items))
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}, "sk": {"N": "1"}})
    extension(endpoint, "WaitForIndexes", {"TableName": name})
    assert counts() == (1, projected(items[1], gsi),
                        2, projected(items[1], lsi) + projected(items[2], lsi))


def test_batch_write_item_returns_item_collection_metrics(ddb):
    name = unique_name("icm")
    create_indexed_table(ddb, name)
    out = ddb.batch_write_item(
        RequestItems={name: [{"PutRequest": {"Item": item("a", 1, "G", 1)}},
                             {"PutRequest": {"Item": item("b", 1, "G", 1)}},
                             {"PutRequest": {"Item": item("a", 2, "G", 1)}}]},
        ReturnItemCollectionMetrics="SIZE")
    assert out["ItemCollectionMetrics"] == {name: [
        {"ItemCollectionKey": {"pk": {"S": "a"}}, "SizeEstimateRangeGB": [0.0, 1.0]},
        {"ItemCollectionKey": {"pk": {"S": "b"}}, "SizeEstimateRangeGB": [0.0, 1.0]}]}
    out = ddb.batch_write_item(
        RequestItems={name: [{"PutRequest": {"Item": item("c", 1, "G", 1)}}]})
    assert "ItemCollectionMetrics" not in out or out["ItemCollectionMetrics"] == {}


def test_index_key_values_over_the_size_limits_are_refused(ddb):
    name = unique_name("big")
    create_indexed_table(ddb, name)
    big = item("a", 1, "x" * 2049, 1)
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=name, Item=big)
    assert e.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: Size limit exceeded for Index Key g "
        "Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byG")
    ddb.put_item(TableName=name, Item=item("a", 1, "x" * 2048, 1, l="y" * 1024))
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=name, Key={"pk": {"S": "a"}, "sk": {"N": "1"}},
                        UpdateExpression="SET l = :l",
                        ExpressionAttributeValues={":l": {"S": "y" * 1025}})
    assert e.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: Aggregated size of all range keys "
        "has exceeded the size limit of 1024 bytes")


def test_projection_definitions_are_validated(ddb):
    def create_error(*projections):
        with pytest.raises(ClientError) as e:
            ddb.create_table(
                TableName=unique_name("proj"), BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                      {"AttributeName": "g", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                GlobalSecondaryIndexes=[{
                    "IndexName": f"gsi{i}",
                    "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                    "Projection": p} for i, p in enumerate(projections)])
        return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]

    invalid = "One or more parameter values were invalid: "
    assert create_error({"ProjectionType": "KEYS_ONLY", "NonKeyAttributes": ["a"]}) == (
        "ValidationException",
        invalid + "ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified")
    assert create_error({"ProjectionType": "ALL", "NonKeyAttributes": ["a"]}) == (
        "ValidationException",
        invalid + "ProjectionType is ALL, but NonKeyAttributes is specified")
    assert create_error({"ProjectionType": "INCLUDE"}) == (
        "ValidationException", invalid + "NonKeyAttributes must not be empty")
    assert create_error({"ProjectionType": "INCLUDE", "NonKeyAttributes": ["a", "b", "a"]}) == (
        "ValidationException", invalid + "Duplicate NonKeyAttributes in projection: a")
    # At most 20 NonKeyAttributes per index (the request's shape), 100 over all
    # indexes: one attribute projected by two indexes counts twice.
    twenty = {"ProjectionType": "INCLUDE", "NonKeyAttributes": [f"a{i}" for i in range(20)]}
    assert create_error(*[twenty] * 5, {"ProjectionType": "INCLUDE",
                                        "NonKeyAttributes": ["a0"]}) == (
        "ValidationException",
        invalid + "Number of projected attributes in all indexes exceeds limit of 100, "
                  "number of projected attributes: 101")
