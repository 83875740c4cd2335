"""Vector indexes and SearchVectors over HTTP (docs/vector-search.md): raw
DynamoDB JSON, since boto3's model here predates vector search. Covers
CreateTable VectorIndexes, DescribeTable, SearchVectors (TopK, HASH and
INLINE_FILTER conditions, validation messages), UpdateTable create/delete,
and a vector index rebuilt after SIGKILL."""

import json
import random
import tempfile
import time
import urllib.request

import pytest

from conftest import DynarockServer

AUTH = ("AWS4-HMAC-SHA256 Credential=AKIDVEC/20250101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=0")


def call(server, op, body):
    req = urllib.request.Request(server.url, data=json.dumps(body).encode(), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": op if "." in op else "DynamoDB_20120810." + op, "Authorization": AUTH})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return 200, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def ok(server, op, body):
    code, out = call(server, op, body)
    assert code == 200, out
    return out


def error(server, op, body):
    code, out = call(server, op, body)
    assert code == 400, out
    return out["__type"].split("#")[1], out["message"]


def vec(v):
    return {"L": [{"N": repr(float(x))} for x in v]}


def create_table(server, name, billing="PAY_PER_REQUEST", distance="EUCLIDEAN"):
    body = {
        "TableName": name, "BillingMode": billing,
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "cat", "AttributeType": "S"},
                                 {"AttributeName": "color", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "VectorIndexes": [{
            "IndexName": "emb", "VectorAttribute": {"AttributeName": "v"},
            "Dimensions": 3, "DistanceFunction": distance,
            "Projection": {"ProjectionType": "ALL"},
            "SearchSchema": [{"AttributeName": "cat", "SearchSchemaElementType": "HASH"},
                             {"AttributeName": "color",
                              "SearchSchemaElementType": "INLINE_FILTER"}]}]}
    if billing == "PROVISIONED":
        body["ProvisionedThroughput"] = {"ReadCapacityUnits": 1, "WriteCapacityUnits": 1}
    return call(server, "CreateTable", body)


def wait_table(server, name):
    """Until the table is ACTIVE (a new table is CREATING for a moment)."""
    for _ in range(400):
        code, out = call(server, "DescribeTable", {"TableName": name})
        if code == 200 and out["Table"]["TableStatus"] == "ACTIVE":
            return
        time.sleep(0.025)
    raise AssertionError(f"{name} never became ACTIVE")


def wait(server):
    ok(server, "DynamoRock_20251121.WaitForIndexes", {})


def search(server, name, v, k, cond="cat = :c", values=None, **extra):
    body = {"TableName": name, "IndexName": "emb", "SearchVector": vec(v)["L"], "TopK": k,
            "SearchConditionExpression": cond,
            "ExpressionAttributeValues": values or {":c": {"S": "a"}}, **extra}
    return call(server, "SearchVectors", body)


@pytest.fixture
def srv():
    d = tempfile.mkdtemp()
    s = DynarockServer("--db-path", d)
    s.data_dir = d
    yield s
    s.stop(kill=True)


def fill(server, name, n=300, seed=7):
    wait_table(server, name)
    rng = random.Random(seed)
    items = []
    for i in range(n):
        v = [rng.uniform(-1, 1) for _ in range(3)]
        item = {"pk": {"S": f"k{i}"}, "cat": {"S": "a" if i % 3 else "b"},
                "color": {"S": "red" if i % 10 == 0 else "blue"}, "v": vec(v)}
        ok(server, "PutItem", {"TableName": name, "Item": item})
        items.append((f"k{i}", "a" if i % 3 else "b", "red" if i % 10 == 0 else "blue", v))
    return items


def exact(items, q, k, cat="a", color=None):
    rows = [(sum((a - b) ** 2 for a, b in zip(v, q)) ** 0.5, pk)
            for pk, c, col, v in items if c == cat and (color is None or col == color)]
    return [pk for _, pk in sorted(rows)[:k]]


def test_create_describe_search_and_errors(srv):
    code, out = create_table(srv, "vt1")
    assert code == 200, out
    desc = out["TableDescription"]["VectorIndexes"][0]
    assert desc["IndexName"] == "emb" and desc["Dimensions"] == 3
    assert desc["DistanceFunction"] == "EUCLIDEAN" and "Backfilling" not in desc
    assert desc["SearchSchema"][0] == {"AttributeName": "cat", "SearchSchemaElementType": "HASH"}
    items = fill(srv, "vt1")
    wait(srv)
    d = ok(srv, "DescribeTable", {"TableName": "vt1"})["Table"]["VectorIndexes"][0]
    assert d["IndexStatus"] == "ACTIVE" and d["ItemCount"] == 300
    q = [0.1, 0.2, 0.3]
    out = ok(srv, "SearchVectors", {"TableName": "vt1", "IndexName": "emb",
                                    "SearchVector": vec(q)["L"], "TopK": 5,
                                    "SearchConditionExpression": "cat = :c",
                                    "ExpressionAttributeValues": {":c": {"S": "a"}},
                                    "ReturnConsumedCapacity": "TOTAL"})
    assert [r["Item"]["pk"]["S"] for r in out["SearchResults"]] == exact(items, q, 5)
    assert out["ConsumedCapacity"]["VectorSearchRequestBytes"] > 0
    scores = [r["Score"] for r in out["SearchResults"]]
    assert scores == sorted(scores)
    # A selective inline filter still returns TopK (30 red items in 300).
    code, out = search(srv, "vt1", q, 20, cond="cat = :c AND color = :r",
                       values={":c": {"S": "a"}, ":r": {"S": "red"}})
    assert [r["Item"]["pk"]["S"] for r in out["SearchResults"]] == exact(items, q, 20, color="red")
    # Validation.
    assert error(srv, "SearchVectors", {"TableName": "vt1", "IndexName": "emb",
                                        "SearchVector": vec(q)["L"], "TopK": 101}) == (
        "ValidationException", "Provided TopK value is out of valid range")
    assert error(srv, "SearchVectors", {"TableName": "vt1", "IndexName": "emb",
                                        "SearchVector": vec(q)["L"], "TopK": 3}) == (
        "ValidationException",
        "SearchConditionExpression must be provided when SearchSchema has a HASH key")
    code, out = search(srv, "vt1", q, 3, cond="cat > :c")
    assert out["message"] == "Invalid comparator used in SearchConditionExpression"
    code, out = search(srv, "vt1", [1, 2], 3)
    assert code == 400 and "dimensions" in out["message"]
    code, out = search(srv, "vt1", q, 3, ProjectionExpression="pk, v")
    assert code == 200 and "v" in out["SearchResults"][0]["Item"]
    assert error(srv, "SearchVectors", {"TableName": "vt1", "IndexName": "nope",
                                        "SearchVector": vec(q)["L"], "TopK": 3})[1] == (
        "The table does not have the specified index: nope")
    # Writes of a malformed vector are refused; a missing one is not indexed.
    code, out = call(srv, "PutItem", {"TableName": "vt1", "Item": {
        "pk": {"S": "bad"}, "cat": {"S": "a"}, "v": vec([1, 2])}})
    assert code == 400 and "dimensions" in out["message"]
    code, out = call(srv, "PutItem", {"TableName": "vt1", "Item": {
        "pk": {"S": "bad"}, "cat": {"S": "a"}, "v": {"L": [{"S": "x"}, {"N": "1"}, {"N": "2"}]}}})
    assert code == 400 and "element 0" in out["message"]
    ok(srv, "PutItem", {"TableName": "vt1", "Item": {"pk": {"S": "novec"}, "cat": {"S": "a"}}})
    # Query and Scan on a vector index are refused.
    code, out = call(srv, "Scan", {"TableName": "vt1", "IndexName": "emb"})
    assert code == 400 and "SearchVectors" in out["message"]
    # Provisioned tables cannot have one.
    code, out = create_table(srv, "vt2", billing="PROVISIONED")
    assert code == 400 and "on-demand" in out["message"]


def test_update_table_create_delete(srv):
    ok(srv, "CreateTable", {"TableName": "vt3", "BillingMode": "PAY_PER_REQUEST",
                            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})
    wait_table(srv, "vt3")
    for i in range(50):
        ok(srv, "PutItem", {"TableName": "vt3", "Item": {"pk": {"S": f"k{i}"},
                                                         "v": vec([i, 0, 1])}})
    out = ok(srv, "UpdateTable", {"TableName": "vt3", "VectorIndexUpdates": [{"Create": {
        "IndexName": "emb", "VectorAttribute": {"AttributeName": "v"}, "Dimensions": 3,
        "DistanceFunction": "DOT_PRODUCT", "Projection": {"ProjectionType": "KEYS_ONLY"}}}]})
    v = out["TableDescription"]["VectorIndexes"][0]
    assert v["IndexStatus"] == "CREATING" and v["Backfilling"] is True
    wait(srv)
    d = ok(srv, "DescribeTable", {"TableName": "vt3"})["Table"]["VectorIndexes"][0]
    assert d["IndexStatus"] == "ACTIVE" and d["Backfilling"] is False and d["ItemCount"] == 50
    out = ok(srv, "SearchVectors", {"TableName": "vt3", "IndexName": "emb",
                                    "SearchVector": vec([1, 0, 0])["L"], "TopK": 2})
    assert [r["Item"] for r in out["SearchResults"]] == [{"pk": {"S": "k49"}}, {"pk": {"S": "k48"}}]
    assert out["SearchResults"][0]["Score"] == pytest.approx(49.0)
    wait_table(srv, "vt3")
    out = ok(srv, "UpdateTable", {"TableName": "vt3", "VectorIndexUpdates": [
        {"Delete": {"IndexName": "emb"}}]})
    assert out["TableDescription"]["VectorIndexes"][0]["IndexStatus"] == "DELETING"
    assert "VectorIndexes" not in ok(srv, "DescribeTable", {"TableName": "vt3"})["Table"]


def test_index_rebuilt_after_sigkill(srv):
    assert create_table(srv, "vt4")[0] == 200
    items = fill(srv, "vt4", n=120)
    wait(srv)
    srv.stop(kill=True)
    srv.start()
    q = [0.5, -0.5, 0.2]
    code, out = search(srv, "vt4", q, 10)
    assert code == 200, out
    assert [r["Item"]["pk"]["S"] for r in out["SearchResults"]] == exact(items, q, 10)
