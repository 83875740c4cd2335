"""Query and Scan through boto3 against a real `dynarock serve`: paginators,
the Table resource with Key conditions, parallel scan, page boundaries."""

from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key
from boto3.dynamodb.types import Binary
from botocore.exceptions import ClientError

from conftest import create_simple_table, put_item_paced, unique_name

NUMBERS = ["-1e10", "-7.1e2", "-4.1", "-0.1", "-1e-5", "0", "2e-5", "0.15",
           "1", "1.00000000000000000000000000001", "3.14159", "31.4", "1.4e10"]


@pytest.fixture
def range_table(ddb):
    return create_simple_table(ddb, unique_name("qs"), range_key="N")


@pytest.fixture
def binary_table(ddb):
    return create_simple_table(ddb, unique_name("qb"), range_key="B")


def error_of(excinfo):
    err = excinfo.value.response["Error"]
    return err["Code"], err["Message"]


def test_numeric_sort_keys_in_order_both_ways(ddb_resource, range_table):
    table = ddb_resource.Table(range_table)
    with table.batch_writer() as batch:
        for n in reversed(NUMBERS):
            batch.put_item(Item={"pk": "p", "sk": Decimal(n)})
        batch.put_item(Item={"pk": "other", "sk": 1})
    forward = table.query(KeyConditionExpression=Key("pk").eq("p"))
    assert [i["sk"] for i in forward["Items"]] == [Decimal(n) for n in NUMBERS]
    assert forward["Count"] == forward["ScannedCount"] == len(NUMBERS)
    assert "LastEvaluatedKey" not in forward
    backward = table.query(KeyConditionExpression=Key("pk").eq("p"),
                           ScanIndexForward=False)
    assert [i["sk"] for i in backward["Items"]] == [Decimal(n) for n in reversed(NUMBERS)]


def test_key_conditions_of_the_table_resource(ddb_resource, range_table):
    table = ddb_resource.Table(range_table)
    with table.batch_writer() as batch:
        for i in range(10):
            batch.put_item(Item={"pk": "p", "sk": i, "even": i % 2 == 0})

    def sks(cond, **kw):
        return [int(i["sk"]) for i in
                table.query(KeyConditionExpression=Key("pk").eq("p") & cond, **kw)["Items"]]

    assert sks(Key("sk").lt(3)) == [0, 1, 2]
    assert sks(Key("sk").lte(3)) == [0, 1, 2, 3]
    assert sks(Key("sk").gt(7)) == [8, 9]
    assert sks(Key("sk").gte(7)) == [7, 8, 9]
    assert sks(Key("sk").eq(4)) == [4]
    assert sks(Key("sk").between(3, 5)) == [3, 4, 5]
    assert sks(Key("sk").between(3, 5), FilterExpression=Attr("even").eq(True)) == [4]
    r = table.query(KeyConditionExpression=Key("pk").eq("p"), Select="COUNT",
                    FilterExpression=Attr("even").eq(False))
    assert r["Count"] == 5 and r["ScannedCount"] == 10 and "Items" not in r
    r = table.query(KeyConditionExpression=Key("pk").eq("p") & Key("sk").lt(2),
                    ProjectionExpression="#e", ExpressionAttributeNames={"#e": "even"})
    assert r["Items"] == [{"even": True}, {"even": False}]


def test_begins_with_on_binary_sort_keys(ddb_resource, binary_table):
    table = ddb_resource.Table(binary_table)
    keys = [b"\x01", b"\x01\x00\x05", b"\x01\x02", b"\x01\xff", b"\x02", b"\xff\x01", b"\x00\x01"]
    with table.batch_writer() as batch:
        for k in keys:
            batch.put_item(Item={"pk": "p", "sk": Binary(k)})
    got = table.query(KeyConditionExpression=Key("pk").eq("p")
                      & Key("sk").begins_with(Binary(b"\x01")))["Items"]
    assert [bytes(i["sk"].value) for i in got] == [b"\x01", b"\x01\x00\x05", b"\x01\x02",
                                                    b"\x01\xff"]
    everything = table.query(KeyConditionExpression=Key("pk").eq("p"))["Items"]
    assert [bytes(i["sk"].value) for i in everything] == sorted(keys)


def test_query_paginator_with_limit_and_reverse_start_keys(ddb, range_table):
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda i: ddb.put_item(
            TableName=range_table, Item={"pk": {"S": "p"}, "sk": {"N": str(i)}}), range(20)))
    for forward in (True, False):
        for limit in (1, 3, 7, 20):
            pages = list(ddb.get_paginator("query").paginate(
                TableName=range_table, KeyConditionExpression="pk = :p",
                ExpressionAttributeValues={":p": {"S": "p"}},
                ScanIndexForward=forward, PaginationConfig={"PageSize": limit}))
            got = [int(i["sk"]["N"]) for p in pages for i in p["Items"]]
            want = list(range(20)) if forward else list(range(19, -1, -1))
            assert got == want
            # Limit landing on the last item: one more, empty page.
            assert len(pages) == 20 // limit + 1
            assert pages[-1].get("LastEvaluatedKey") is None
    # A start key in the middle, reverse, with a sort-key condition.
    r = ddb.query(TableName=range_table, KeyConditionExpression="pk = :p AND sk < :hi",
                  ExpressionAttributeValues={":p": {"S": "p"}, ":hi": {"N": "10"}},
                  ScanIndexForward=False,
                  ExclusiveStartKey={"pk": {"S": "p"}, "sk": {"N": "5"}}, Limit=3)
    assert [i["sk"]["N"] for i in r["Items"]] == ["4", "3", "2"]
    assert r["LastEvaluatedKey"] == {"pk": {"S": "p"}, "sk": {"N": "2"}}


def test_one_megabyte_pages(ddb, range_table):
    # Items of exactly 128 KiB by DynamoDB's size rules: eight make 1 MB.
    # "pk" + "p", "sk" + a number of one significant digit (2 bytes), "data".
    base = len("pk") + 1 + len("sk") + 2 + len("data")
    payload = "x" * (128 * 1024 - base)
    # 1,280 WCU into one partition key: past its partition's 1,000 WCU/s.
    for i in range(1, 11):
        put_item_paced(ddb, TableName=range_table,
                       Item={"pk": {"S": "p"}, "sk": {"N": str(i)}, "data": {"S": payload}})
    first = ddb.query(TableName=range_table, KeyConditionExpression="pk = :p",
                      ExpressionAttributeValues={":p": {"S": "p"}},
                      ProjectionExpression="sk")
    assert first["ScannedCount"] == 8
    assert first["LastEvaluatedKey"] == {"pk": {"S": "p"}, "sk": {"N": "8"}}
    rest = ddb.query(TableName=range_table, KeyConditionExpression="pk = :p",
                     ExpressionAttributeValues={":p": {"S": "p"}},
                     ExclusiveStartKey=first["LastEvaluatedKey"])
    assert rest["ScannedCount"] == 2 and "LastEvaluatedKey" not in rest


def test_query_errors(ddb, range_table):
    cases = [
        (dict(KeyConditionExpression="sk = :s", ExpressionAttributeValues={":s": {"N": "1"}}),
         "Query condition missed key schema element: pk"),
        (dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
              ExclusiveStartKey={"pk": {"S": "q"}, "sk": {"N": "1"}}),
         "The provided starting key is outside query boundaries based on provided conditions"),
        (dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
              ExclusiveStartKey={"pk": {"S": "p"}}),
         "The provided starting key is invalid"),
        (dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
              Select="COUNT", ProjectionExpression="sk"),
         "1 validation error detected: Cannot specify the ProjectionExpression when "
         "choosing to get only the Count"),
        (dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
              Select="ALL_PROJECTED_ATTRIBUTES"),
         "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
        (dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
              IndexName="nope"),
         "The table does not have the specified index: nope"),
        (dict(KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": {"S": "p"}},
              FilterExpression="sk > :p"),
         "Filter Expression can only contain non-primary key attributes: "
         "Primary key attribute: sk"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ClientError) as e:
            ddb.query(TableName=range_table, **kwargs)
        assert error_of(e) == ("ValidationException", message), kwargs
    with pytest.raises(ClientError) as e:
        ddb.query(TableName="missing-" + range_table, KeyConditionExpression="pk = :p",
                  ExpressionAttributeValues={":p": {"S": "p"}})
    assert error_of(e) == ("ResourceNotFoundException", "Requested resource not found")


def test_scan_paginator_and_parallel_segments(ddb, table):
    keys = {f"k{i}" for i in range(300)}
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda k: ddb.put_item(
            TableName=table, Item={"pk": {"S": k}, "v": {"N": "1"}}), sorted(keys)))
    pages = list(ddb.get_paginator("scan").paginate(
        TableName=table, PaginationConfig={"PageSize": 40}))
    assert sorted(i["pk"]["S"] for p in pages for i in p["Items"]) == sorted(keys)
    assert all(p["ScannedCount"] <= 40 for p in pages)

    def segment(s, total=8):
        got = []
        for page in ddb.get_paginator("scan").paginate(
                TableName=table, Segment=s, TotalSegments=total,
                PaginationConfig={"PageSize": 25}):
            got += [i["pk"]["S"] for i in page["Items"]]
        return got

    with ThreadPoolExecutor(8) as pool:
        parts = list(pool.map(segment, range(8)))
    union = [k for part in parts for k in part]
    assert len(union) == len(keys) and set(union) == keys  # disjoint, complete
    assert sum(1 for p in parts if p) > 1  # spread over segments

    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=table, Segment=8, TotalSegments=8)
    assert error_of(e) == (
        "ValidationException",
        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
        "Segment: 8 is not less than TotalSegments: 8")
    # A start key from another segment.
    home = next(s for s, part in enumerate(parts) if part)
    start = {"pk": {"S": parts[home][0]}}
    other = (home + 1) % 8
    with pytest.raises(ClientError) as e:
        ddb.scan(TableName=table, Segment=other, TotalSegments=8, ExclusiveStartKey=start)
    assert error_of(e) == (
        "ValidationException",
        "The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
        f"ExclusiveStartKey with correct Segment. TotalSegments: 8 Segment: {other}")


def test_scan_with_filter_and_legacy_parameters(ddb, ddb_resource, table):
    t = ddb_resource.Table(table)
    with t.batch_writer() as batch:
        for i in range(12):
            batch.put_item(Item={"pk": f"k{i}", "n": i, "tag": "odd" if i % 2 else "even"})
    items = []
    for page in ddb.get_paginator("scan").paginate(
            TableName=table, ScanFilter={"n": {"ComparisonOperator": "GE",
                                               "AttributeValueList": [{"N": "6"}]}},
            AttributesToGet=["n"]):
        items += page["Items"]
    assert sorted(int(i["n"]["N"]) for i in items) == list(range(6, 12))
    assert all(set(i) == {"n"} for i in items)
    r = t.scan(FilterExpression=Attr("tag").eq("odd") & Attr("n").lt(5))
    assert sorted(int(i["n"]) for i in r["Items"]) == [1, 3]
    assert r["ScannedCount"] == 12
