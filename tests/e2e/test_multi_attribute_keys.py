"""Multi-attribute GSI keys end to end with boto3: a GSI KeySchema of up to
four HASH and four RANGE elements (CreateTable and UpdateTable), DescribeTable
returning it as given, writes (sparse, wrong types refused), Query with
equality on every partition-key attribute and conditions on a leading run of
sort-key attributes, paging with every key attribute in LastEvaluatedKey,
Scan, and DynamoDB's validation errors.

boto3 1.26's model gives KeySchema at most 2 elements, but botocore checks
only minimum lengths on the client, so these requests go out unchanged."""

import pytest
from botocore.exceptions import ClientError

from conftest import unique_name

WAIT = {"Delay": 0.05, "MaxAttempts": 200}

BRACKET_KEY = [
    {"AttributeName": "tournamentId", "KeyType": "HASH"},
    {"AttributeName": "region", "KeyType": "HASH"},
    {"AttributeName": "round", "KeyType": "RANGE"},
    {"AttributeName": "matchNo", "KeyType": "RANGE"},
]


def create_matches(ddb):
    name = unique_name("multi")
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            {"AttributeName": "matchId", "AttributeType": "S"},
            {"AttributeName": "tournamentId", "AttributeType": "S"},
            {"AttributeName": "region", "AttributeType": "S"},
            {"AttributeName": "round", "AttributeType": "S"},
            {"AttributeName": "matchNo", "AttributeType": "N"},
        ],
        KeySchema=[{"AttributeName": "matchId", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{
            "IndexName": "ByBracket", "KeySchema": BRACKET_KEY,
            "Projection": {"ProjectionType": "KEYS_ONLY"}}])
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)
    return name


def match(match_id, tournament, region, rnd, number, **more):
    item = {"matchId": {"S": match_id}, "tournamentId": {"S": tournament},
            "region": {"S": region}, "round": {"S": rnd},
            "matchNo": {"N": str(number)}}
    item.update(more)
    return item


def error(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


@pytest.fixture
def matches(ddb):
    name = create_matches(ddb)
    for i, (t, r, rnd, n) in enumerate([
            ("WINTER", "NA", "FINAL", 1), ("WINTER", "NA", "SEMI", 2),
            ("WINTER", "NA", "SEMI", 1), ("WINTER", "NA", "QUARTER", 10),
            ("WINTER", "NA", "QUARTER", 9), ("WINTER", "EU", "SEMI", 1),
            ("SUMMER", "NA", "SEMI", 1)]):
        ddb.put_item(TableName=name, Item=match(f"m{i}", t, r, rnd, n))
    # Propagation is asynchronous but immediate by default; a Query that
    # sees every entry of the partition is the sign it is done.
    for _ in range(200):
        got = ddb.query(TableName=name, IndexName="ByBracket",
                        KeyConditionExpression="tournamentId = :t AND #r = :r",
                        ExpressionAttributeNames={"#r": "region"},
                        ExpressionAttributeValues={":t": {"S": "WINTER"}, ":r": {"S": "NA"}})
        if got["Count"] == 5:
            break
    return name


def keys(items):
    return [(i["round"]["S"], int(i["matchNo"]["N"])) for i in items]


def test_describe_table_returns_the_key_schema_as_given(ddb, matches):
    table = ddb.describe_table(TableName=matches)["Table"]
    assert table["GlobalSecondaryIndexes"][0]["KeySchema"] == BRACKET_KEY


def test_query_equality_on_every_partition_key_attribute(ddb, matches):
    base = dict(TableName=matches, IndexName="ByBracket",
                ExpressionAttributeNames={"#r": "region", "#rd": "round"})
    r = ddb.query(TableName=matches, IndexName="ByBracket",
                  KeyConditionExpression="tournamentId = :t AND #r = :r",
                  ExpressionAttributeNames={"#r": "region"},
                  ExpressionAttributeValues={":t": {"S": "WINTER"}, ":r": {"S": "NA"}})
    assert keys(r["Items"]) == [("FINAL", 1), ("QUARTER", 9), ("QUARTER", 10),
                                ("SEMI", 1), ("SEMI", 2)]
    # A leading run of sort-key attributes, then a range condition.
    r = ddb.query(KeyConditionExpression="tournamentId = :t AND #r = :r AND #rd = :rd "
                                         "AND matchNo >= :n",
                  ExpressionAttributeValues={":t": {"S": "WINTER"}, ":r": {"S": "NA"},
                                             ":rd": {"S": "QUARTER"}, ":n": {"N": "10"}},
                  **base)
    assert keys(r["Items"]) == [("QUARTER", 10)]
    r = ddb.query(KeyConditionExpression="tournamentId = :t AND #r = :r AND "
                                         "begins_with(#rd, :p)",
                  ExpressionAttributeValues={":t": {"S": "WINTER"}, ":r": {"S": "NA"},
                                             ":p": {"S": "S"}},
                  ScanIndexForward=False, **base)
    assert keys(r["Items"]) == [("SEMI", 2), ("SEMI", 1)]


def test_paging_carries_every_key_attribute(ddb, matches):
    request = dict(TableName=matches, IndexName="ByBracket", Limit=2,
                   KeyConditionExpression="tournamentId = :t AND #r = :r",
                   ExpressionAttributeNames={"#r": "region"},
                   ExpressionAttributeValues={":t": {"S": "WINTER"}, ":r": {"S": "NA"}})
    seen = []
    while True:
        r = ddb.query(**request)
        seen += keys(r["Items"])
        if "LastEvaluatedKey" not in r:
            break
        assert set(r["LastEvaluatedKey"]) == {"matchId", "tournamentId", "region",
                                              "round", "matchNo"}
        request["ExclusiveStartKey"] = r["LastEvaluatedKey"]
    assert len(seen) == 5


def test_partiql_select_queries_with_every_partition_key_attribute(ddb, matches):
    index = f'"{matches}"."ByBracket"'
    r = ddb.execute_statement(
        Statement=f"SELECT * FROM {index} WHERE \"region\" = 'NA' AND tournamentId = 'WINTER' "
                  "AND \"round\" = 'QUARTER' AND matchNo >= 10",
        ReturnConsumedCapacity="TOTAL")
    assert keys(r["Items"]) == [("QUARTER", 10)]
    q = ddb.query(TableName=matches, IndexName="ByBracket", ReturnConsumedCapacity="TOTAL",
                  KeyConditionExpression="tournamentId = :t AND #r = :r AND #rd = :rd "
                                         "AND matchNo >= :n",
                  ExpressionAttributeNames={"#r": "region", "#rd": "round"},
                  ExpressionAttributeValues={":t": {"S": "WINTER"}, ":r": {"S": "NA"},
                                             ":rd": {"S": "QUARTER"}, ":n": {"N": "10"}})
    assert r["ConsumedCapacity"] == q["ConsumedCapacity"]
    r = ddb.execute_statement(
        Statement=f"SELECT * FROM {index} WHERE tournamentId = ? AND \"region\" = ? "
                  "ORDER BY \"round\" DESC, matchNo DESC",
        Parameters=[{"S": "WINTER"}, {"S": "NA"}])
    assert keys(r["Items"]) == [("SEMI", 2), ("SEMI", 1), ("QUARTER", 10), ("QUARTER", 9),
                                ("FINAL", 1)]
    # Part of the partition key: a Scan of the index, every region.
    r = ddb.execute_statement(
        Statement=f"SELECT * FROM {index} WHERE tournamentId = 'WINTER' AND \"round\" = 'SEMI'")
    assert sorted(keys(r["Items"])) == [("SEMI", 1), ("SEMI", 1), ("SEMI", 2)]
    code, message = error(
        ddb.execute_statement,
        Statement=f"SELECT * FROM {index} WHERE tournamentId = 'WINTER' AND \"region\" = 'NA' "
                  "AND matchNo = 1")
    assert (code, message) == ("ValidationException",
                               "Filter Expression can only contain non-primary key "
                               "attributes: Primary key attribute: matchNo")


def test_query_rules(ddb, matches):
    def query_error(condition, values, **more):
        names = {n: a for n, a in (("#r", "region"), ("#rd", "round")) if n + " " in condition}
        return error(ddb.query, TableName=matches, IndexName="ByBracket",
                     KeyConditionExpression=condition, ExpressionAttributeNames=names,
                     ExpressionAttributeValues=values, **more)

    assert query_error("tournamentId = :t AND #rd = :rd",
                       {":t": {"S": "WINTER"}, ":rd": {"S": "SEMI"}}) == (
        "ValidationException", "Query key condition not supported: every HASH key attribute "
                               "needs an equality condition; attribute: region")
    assert query_error("tournamentId = :t AND #r = :r AND matchNo = :n",
                       {":t": {"S": "WINTER"}, ":r": {"S": "NA"}, ":n": {"N": "1"}}) == (
        "ValidationException", "Query key condition not supported: RANGE key attributes are "
                               "conditioned left to right, each before the last with an "
                               "equality condition; attribute: round")
    assert query_error("tournamentId = :t AND #r = :r AND #rd > :rd AND matchNo = :n",
                       {":t": {"S": "WINTER"}, ":r": {"S": "NA"}, ":rd": {"S": "A"},
                        ":n": {"N": "1"}}) == (
        "ValidationException", "Query key condition not supported: RANGE key attributes are "
                               "conditioned left to right, each before the last with an "
                               "equality condition; attribute: matchNo")
    assert query_error("tournamentId = :t AND #r = :r",
                       {":t": {"S": "WINTER"}, ":r": {"S": "NA"}, ":n": {"N": "1"}},
                       FilterExpression="matchNo = :n") == (
        "ValidationException", "Filter Expression can only contain non-primary key "
                               "attributes: Primary key attribute: matchNo")


def test_legacy_key_conditions(ddb, matches):
    r = ddb.query(TableName=matches, IndexName="ByBracket", KeyConditions={
        "tournamentId": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "WINTER"}]},
        "region": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "NA"}]},
        "round": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "SEMI"}]},
    })
    assert keys(r["Items"]) == [("SEMI", 1), ("SEMI", 2)]


def test_writes_are_sparse_and_refuse_wrong_types(ddb, matches):
    ddb.put_item(TableName=matches, Item={"matchId": {"S": "no-round"},
                                          "tournamentId": {"S": "WINTER"},
                                          "region": {"S": "NA"}, "matchNo": {"N": "1"}})
    assert error(ddb.put_item, TableName=matches,
                 Item=match("bad", "WINTER", "NA", "SEMI", 1,
                            matchNo={"S": "one"})) == (
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for Index Key matchNo "
        "Expected: N Actual: S IndexName: ByBracket")
    scanned = ddb.scan(TableName=matches, IndexName="ByBracket")["Items"]
    assert "no-round" not in {i["matchId"]["S"] for i in scanned}
    assert len(scanned) == 7
    assert set(scanned[0]) == {"matchId", "tournamentId", "region", "round", "matchNo"}


def test_create_table_validation(ddb):
    defs = [{"AttributeName": a, "AttributeType": "S"} for a in ("pk", "a", "b", "c", "d", "e")]

    def create_error(key_schema):
        return error(ddb.create_table, TableName=unique_name("bad"),
                     BillingMode="PAY_PER_REQUEST", AttributeDefinitions=defs,
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     GlobalSecondaryIndexes=[{"IndexName": "gsi", "KeySchema": key_schema,
                                              "Projection": {"ProjectionType": "ALL"}}])

    h = lambda a: {"AttributeName": a, "KeyType": "HASH"}  # noqa: E731
    r = lambda a: {"AttributeName": a, "KeyType": "RANGE"}  # noqa: E731
    assert create_error([h("a"), r("b"), h("c")]) == (
        "ValidationException", "Invalid KeySchema: All HASH key type KeySchemaElements must "
                               "precede all RANGE key type KeySchemaElements")
    assert create_error([h("a"), h("a")]) == (
        "ValidationException",
        "Both the Hash Key and the Range Key element in the KeySchema have the same name")
    assert create_error([h("a"), h("b"), h("zz")]) == (
        "ValidationException",
        "One or more parameter values were invalid: Some index key attributes are not defined "
        "in AttributeDefinitions. Keys: [a, b, zz], AttributeDefinitions: [pk, a, b, c, d, e]")
    assert create_error([h(a) for a in ("a", "b", "c", "d", "e")]) == (
        "ValidationException", "Invalid KeySchema: KeySchema can have at most 4 HASH key type "
                               "elements")
    assert create_error([h("a")] + [r(a) for a in ("b", "c", "d", "e", "pk")]) == (
        "ValidationException", "Invalid KeySchema: KeySchema can have at most 4 RANGE key type "
                               "elements")
    assert create_error([r("a"), h("b"), h("c")]) == (
        "ValidationException", "Invalid KeySchema: The first KeySchemaElement is not a HASH key "
                               "type")


def test_update_table_adds_a_multi_attribute_index(ddb, matches):
    ddb.update_table(
        TableName=matches,
        AttributeDefinitions=[{"AttributeName": "region", "AttributeType": "S"},
                              {"AttributeName": "matchNo", "AttributeType": "N"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "ByRegion",
            "KeySchema": [{"AttributeName": "region", "KeyType": "HASH"},
                          {"AttributeName": "matchNo", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}}])
    for _ in range(400):
        table = ddb.describe_table(TableName=matches)["Table"]
        index = [g for g in table["GlobalSecondaryIndexes"] if g["IndexName"] == "ByRegion"][0]
        if index["IndexStatus"] == "ACTIVE" and table["TableStatus"] == "ACTIVE":
            break
    assert index["KeySchema"][1] == {"AttributeName": "matchNo", "KeyType": "HASH"}
    r = ddb.query(TableName=matches, IndexName="ByRegion",
                  KeyConditionExpression="#r = :r AND matchNo = :n",
                  ExpressionAttributeNames={"#r": "region"},
                  ExpressionAttributeValues={":r": {"S": "NA"}, ":n": {"N": "1"}})
    assert sorted(i["matchId"]["S"] for i in r["Items"]) == ["m0", "m2", "m6"]
