"""PartiQL through boto3: ExecuteStatement, BatchExecuteStatement and
ExecuteTransaction over the online-shop model (tests/data/models), each of
its access patterns written as PartiQL returning the same items and the
same consumed capacity as its Query / GetItem form."""

import subprocess
from pathlib import Path

import pytest
from botocore.exceptions import ClientError

from conftest import REGION, dynarock_bin

MODEL = Path(__file__).resolve().parents[1] / "data" / "models" / "an-online-shop" / "AnOnlineShop_14.json"
KEY = "AKIDPARTIQL"


@pytest.fixture(scope="module")
def shop(server):
    r = subprocess.run(
        [str(dynarock_bin()), "load", "--endpoint", server.url, "--replace",
         "--access-key-id", KEY, "--region", REGION, str(MODEL)],
        capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return server.client(key=KEY)


def S(v):
    return {"S": v}


# (PartiQL statement, parameters, the equivalent request: ("get_item" |
# "query", kwargs)). Patterns of the model's summary table.
PATTERNS = [
    # getCustomerByCustomerId: GetItem.
    ('SELECT * FROM "OnlineShop" WHERE PK = ? AND SK = ?', [S("c#12345"), S("c#12345")],
     ("get_item", {"Key": {"PK": S("c#12345"), "SK": S("c#12345")}})),
    # getProductByProductId, with a projection.
    ('SELECT Name, Price FROM OnlineShop WHERE PK = \'p#12345\' AND SK = \'p#12345\'', [],
     ("get_item", {"Key": {"PK": S("p#12345"), "SK": S("p#12345")},
                   "ProjectionExpression": "#n, Price", "ExpressionAttributeNames": {"#n": "Name"}})),
    # getOrderDetailsByOrderId: the whole item collection.
    ('SELECT * FROM OnlineShop WHERE PK = ?', [S("o#12345")],
     ("query", {"KeyConditionExpression": "PK = :o", "ExpressionAttributeValues": {":o": S("o#12345")}})),
    # getShipmentByOrderId: begins_with on the sort key.
    ("SELECT * FROM OnlineShop WHERE PK = 'o#12345' AND begins_with(SK, 'sh#')", [],
     ("query", {"KeyConditionExpression": "PK = :o AND begins_with(SK, :p)",
                "ExpressionAttributeValues": {":o": S("o#12345"), ":p": S("sh#")}})),
    # getProductInventoryByProductId, newest warehouse first.
    ("SELECT * FROM OnlineShop WHERE PK = ? AND begins_with(SK, ?) ORDER BY SK DESC",
     [S("p#99887"), S("w#")],
     ("query", {"KeyConditionExpression": "PK = :o AND begins_with(SK, :p)", "ScanIndexForward": False,
                "ExpressionAttributeValues": {":o": S("p#99887"), ":p": S("w#")}})),
    # getOrdersByCustomerId between two dates (GSI2).
    ('SELECT * FROM "OnlineShop"."GSI2" WHERE "GSI2-PK" = ? AND "GSI2-SK" BETWEEN ? AND ?',
     [S("c#12345"), S("2020-06-21T00:00:00"), S("2020-06-21T19:19:00")],
     ("query", {"IndexName": "GSI2", "KeyConditionExpression": "#p = :c AND #s BETWEEN :a AND :b",
                "ExpressionAttributeNames": {"#p": "GSI2-PK", "#s": "GSI2-SK"},
                "ExpressionAttributeValues": {":c": S("c#12345"), ":a": S("2020-06-21T00:00:00"),
                                              ":b": S("2020-06-21T19:19:00")}})),
    # getShipmentsByWarehouseId (GSI2) with a filter on a non-key attribute.
    ('SELECT * FROM "OnlineShop"."GSI2" WHERE "GSI2-PK" = \'w#12345\' AND EntityType = \'shipment\'', [],
     ("query", {"IndexName": "GSI2", "KeyConditionExpression": "#p = :w",
                "FilterExpression": "EntityType = :e",
                "ExpressionAttributeNames": {"#p": "GSI2-PK"},
                "ExpressionAttributeValues": {":w": S("w#12345"), ":e": S("shipment")}})),
    # The seed document's other patterns (its summary table; tests/scenarios/
    # online_shop_test.cc runs each as its Query / GetItem).
    # 3. getWarehouseByWarehouseId.
    ('SELECT * FROM OnlineShop WHERE PK = ? AND SK = ?', [S("w#12345"), S("w#12345")],
     ("get_item", {"Key": {"PK": S("w#12345"), "SK": S("w#12345")}})),
    # 6. getProductByOrderId, 7. getInvoiceByOrderId.
    ("SELECT * FROM OnlineShop WHERE PK = 'o#12345' AND begins_with(SK, 'p#')", [],
     ("query", {"KeyConditionExpression": "PK = :o AND begins_with(SK, :p)",
                "ExpressionAttributeValues": {":o": S("o#12345"), ":p": S("p#")}})),
    ("SELECT * FROM OnlineShop WHERE PK = 'o#12345' AND begins_with(SK, 'i#')", [],
     ("query", {"KeyConditionExpression": "PK = :o AND begins_with(SK, :p)",
                "ExpressionAttributeValues": {":o": S("o#12345"), ":p": S("i#")}})),
    # 9. getOrderByProductIdForDateRange (GSI1).
    ('SELECT * FROM "OnlineShop"."GSI1" WHERE "GSI1-PK" = ? AND "GSI1-SK" BETWEEN ? AND ?',
     [S("p#99887"), S("2020-06-21T00:00:00"), S("2020-06-21T23:59:00")],
     ("query", {"IndexName": "GSI1", "KeyConditionExpression": "#p = :p AND #s BETWEEN :a AND :b",
                "ExpressionAttributeNames": {"#p": "GSI1-PK", "#s": "GSI1-SK"},
                "ExpressionAttributeValues": {":p": S("p#99887"), ":a": S("2020-06-21T00:00:00"),
                                              ":b": S("2020-06-21T23:59:00")}})),
    # 10. getInvoiceByInvoiceId, 12. getShipmentDetailsByShipmentId (GSI1).
    ('SELECT * FROM "OnlineShop"."GSI1" WHERE "GSI1-PK" = ? AND "GSI1-SK" = ?',
     [S("i#55443"), S("i#55443")],
     ("query", {"IndexName": "GSI1", "KeyConditionExpression": "#p = :i AND #s = :i",
                "ExpressionAttributeNames": {"#p": "GSI1-PK", "#s": "GSI1-SK"},
                "ExpressionAttributeValues": {":i": S("i#55443")}})),
    ('SELECT * FROM "OnlineShop"."GSI1" WHERE "GSI1-PK" = ?', [S("sh#98765")],
     ("query", {"IndexName": "GSI1", "KeyConditionExpression": "#p = :s",
                "ExpressionAttributeNames": {"#p": "GSI1-PK"},
                "ExpressionAttributeValues": {":s": S("sh#98765")}})),
    # 14. getProductInventoryByWarehouseId (GSI2).
    ('SELECT * FROM "OnlineShop"."GSI2" WHERE "GSI2-PK" = \'w#12345\' AND begins_with("GSI2-SK", \'p#\')', [],
     ("query", {"IndexName": "GSI2", "KeyConditionExpression": "#p = :w AND begins_with(#s, :p)",
                "ExpressionAttributeNames": {"#p": "GSI2-PK", "#s": "GSI2-SK"},
                "ExpressionAttributeValues": {":w": S("w#12345"), ":p": S("p#")}})),
    # 15. getInvoiceByCustomerIdForDateRange, 16. getProductsByCustomerIdForDateRange
    # (GSI2, as revised on _14: a date range and a filter on EntityType).
    ('SELECT * FROM "OnlineShop"."GSI2" WHERE "GSI2-PK" = ? AND "GSI2-SK" BETWEEN ? AND ? AND EntityType = ?',
     [S("c#12345"), S("2020-06-01"), S("2020-06-30"), S("invoice")],
     ("query", {"IndexName": "GSI2", "KeyConditionExpression": "#p = :c AND #s BETWEEN :a AND :b",
                "FilterExpression": "EntityType = :t",
                "ExpressionAttributeNames": {"#p": "GSI2-PK", "#s": "GSI2-SK"},
                "ExpressionAttributeValues": {":c": S("c#12345"), ":a": S("2020-06-01"),
                                              ":b": S("2020-06-30"), ":t": S("invoice")}})),
    ('SELECT * FROM "OnlineShop"."GSI2" WHERE EntityType = ? AND "GSI2-PK" = ? AND "GSI2-SK" BETWEEN ? AND ?',
     [S("orderItem"), S("c#12345"), S("2020-06-01"), S("2020-06-30")],
     ("query", {"IndexName": "GSI2", "KeyConditionExpression": "#p = :c AND #s BETWEEN :a AND :b",
                "FilterExpression": "EntityType = :t",
                "ExpressionAttributeNames": {"#p": "GSI2-PK", "#s": "GSI2-SK"},
                "ExpressionAttributeValues": {":c": S("c#12345"), ":a": S("2020-06-01"),
                                              ":b": S("2020-06-30"), ":t": S("orderItem")}})),
    # 11. getPaymentByInvoiceId: test_payment_by_invoice_id (a nested path).
]


@pytest.mark.parametrize("statement,parameters,equivalent", PATTERNS)
def test_access_pattern_matches_its_query_or_get(shop, statement, parameters, equivalent):
    kwargs = {"Statement": statement, "ReturnConsumedCapacity": "TOTAL"}
    if parameters:
        kwargs["Parameters"] = parameters
    got = shop.execute_statement(**kwargs)
    op, req = equivalent
    want = getattr(shop, op)(TableName="OnlineShop", ReturnConsumedCapacity="TOTAL", **req)
    want_items = [want["Item"]] if op == "get_item" and "Item" in want else want.get("Items", [])
    assert got["Items"] == want_items
    assert len(got["Items"]) >= 1
    assert got["ConsumedCapacity"] == want["ConsumedCapacity"]


def test_payment_by_invoice_id(shop):
    # 11. getPaymentByInvoiceId projects Detail.Payments: PartiQL returns the
    # value under its own name, the Query (ProjectionExpression) in the
    # item's shape; the same value at the same cost.
    got = shop.execute_statement(
        Statement='SELECT Detail.Payments FROM "OnlineShop"."GSI1" WHERE "GSI1-PK" = ? AND "GSI1-SK" = ?',
        Parameters=[S("i#55443"), S("i#55443")], ReturnConsumedCapacity="TOTAL")
    want = shop.query(TableName="OnlineShop", IndexName="GSI1", ReturnConsumedCapacity="TOTAL",
                      KeyConditionExpression="#p = :i AND #s = :i", ProjectionExpression="#d.Payments",
                      ExpressionAttributeNames={"#p": "GSI1-PK", "#s": "GSI1-SK", "#d": "Detail"},
                      ExpressionAttributeValues={":i": S("i#55443")})
    assert len(want["Items"]) == 1
    assert got["Items"] == [{"Payments": want["Items"][0]["Detail"]["M"]["Payments"]}]
    assert [p["M"]["Type"]["S"] for p in got["Items"][0]["Payments"]["L"]] == ["GiftCard", "MasterCard"]
    assert got["ConsumedCapacity"] == want["ConsumedCapacity"]


def test_nested_paths_answer_under_their_own_names(shop):
    shop.execute_statement(
        Statement="INSERT INTO OnlineShop VALUE {'PK': 'nest#1', 'SK': 'nest#1', "
                  "'Doc': {'Tags': ['a', 'b', 'c'], 'Deep': {'Lvl': 2}}}")
    r = shop.execute_statement(
        Statement="SELECT Doc.Tags[2], Doc.Deep.Lvl, Doc.Tags[0], PK, Doc.Nope "
                  "FROM OnlineShop WHERE PK = 'nest#1' AND SK = 'nest#1'")
    assert r["Items"] == [{"Tags[2]": S("c"), "Lvl": {"N": "2"}, "Tags[0]": S("a"), "PK": S("nest#1")}]
    # GetItem's projection keeps the item's shape.
    g = shop.get_item(TableName="OnlineShop", Key={"PK": S("nest#1"), "SK": S("nest#1")},
                      ProjectionExpression="Doc.Deep.Lvl")
    assert g["Item"] == {"Doc": {"M": {"Deep": {"M": {"Lvl": {"N": "2"}}}}}}
    with pytest.raises(ClientError) as e:
        shop.execute_statement(
            Statement="SELECT Doc.Deep.Lvl, Lvl FROM OnlineShop WHERE PK = 'nest#1' AND SK = 'nest#1'")
    assert e.value.response["Error"] == {
        "Code": "ValidationException", "Message": "Duplicate identifiers in select clause: Lvl"}
    shop.execute_statement(Statement="DELETE FROM OnlineShop WHERE PK = 'nest#1' AND SK = 'nest#1'")


def test_key_conditions_the_key_condition_cannot_take_filter(shop):
    # An order's items picked by sort key (IN, <>): a Query of the whole
    # item collection, filtered; its items and its capacity.
    whole = _query_all(shop, "o#12345")
    sks = [i["SK"]["S"] for i in whole["Items"]]
    assert len(sks) >= 3
    picked = [sks[0], sks[-1]]
    for statement, parameters, want in [
        ("SELECT * FROM OnlineShop WHERE PK = ? AND SK IN [?, ?]",
         [S("o#12345"), S(picked[1]), S(picked[0])], picked),
        ("SELECT * FROM OnlineShop WHERE PK = ? AND SK <> ?", [S("o#12345"), S(sks[0])], sks[1:]),
    ]:
        got = shop.execute_statement(Statement=statement, Parameters=parameters,
                                     ReturnConsumedCapacity="TOTAL")
        assert [i["SK"]["S"] for i in got["Items"]] == want
        assert got["Items"] == [i for i in whole["Items"] if i["SK"]["S"] in want]
        assert got["ConsumedCapacity"] == whole["ConsumedCapacity"]


def test_select_without_the_partition_key_is_a_scan(shop):
    # No equality on PK: a Scan with the WHERE as its filter, the same items
    # in the same order at the same cost.
    got = shop.execute_statement(
        Statement="SELECT * FROM OnlineShop WHERE EntityType = ? AND begins_with(PK, ?)",
        Parameters=[S("product"), S("p#")], ReturnConsumedCapacity="TOTAL")
    want = shop.scan(TableName="OnlineShop", FilterExpression="EntityType = :e AND begins_with(PK, :p)",
                     ExpressionAttributeValues={":e": S("product"), ":p": S("p#")},
                     ReturnConsumedCapacity="TOTAL")
    assert "LastEvaluatedKey" not in want
    assert got["Items"] == want["Items"]
    assert len(got["Items"]) == 2
    assert got["ConsumedCapacity"] == want["ConsumedCapacity"]


def test_scan_paging_with_limit_and_next_token(shop):
    items, token, pages = [], None, 0
    while True:
        kwargs = {"Statement": "SELECT PK, SK FROM OnlineShop WHERE EntityType = 'product'", "Limit": 5}
        if token:
            kwargs["NextToken"] = token
        page = shop.execute_statement(**kwargs)
        items += page["Items"]
        pages += 1
        token = page.get("NextToken")
        if not token:
            break
    assert pages >= 4
    assert sorted(i["PK"]["S"] for i in items) == ["p#12345", "p#99887"]


def test_writes_and_errors(shop):
    shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'c#777', 'SK': 'c#777', 'Email': ?}",
                           Parameters=[S("a@example.com")])
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'c#777', 'SK': 'c#777'}")
    assert e.value.response["Error"]["Code"] == "DuplicateItemException"
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'c#778'}")
    assert e.value.response["Error"] == {
        "Code": "ValidationException", "Message": "Key attribute should be present in the item: Key SK"}
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'c#778', 'SK': 7}")
    assert e.value.response["Error"]["Message"] == \
        "Key attribute's data type should match its data type in table's schema: Key SK"
    r = shop.execute_statement(
        Statement="UPDATE OnlineShop SET Email = 'b@example.com' SET Tags = set_add(Tags, <<'vip'>>) "
                  "WHERE PK = 'c#777' AND SK = 'c#777' RETURNING ALL NEW *")
    assert r["Items"] == [{"PK": S("c#777"), "SK": S("c#777"), "Email": S("b@example.com"), "Tags": {"SS": ["vip"]}}]
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="UPDATE OnlineShop SET Email = 'x' WHERE PK = 'c#777'")
    assert e.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Where clause does not contain a mandatory equality on all key attributes"}
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="SELEKT * FROM OnlineShop")
    assert e.value.response["Error"]["Message"] == \
        "Statement wasn't well formed, can't be processed: Expected data manipulation"
    r = shop.execute_statement(Statement="DELETE FROM OnlineShop WHERE PK = 'c#777' AND SK = 'c#777' RETURNING ALL OLD *")
    assert r["Items"][0]["Email"] == S("b@example.com")


def test_batch_execute_statement(shop):
    r = shop.batch_execute_statement(Statements=[
        {"Statement": "SELECT Name FROM OnlineShop WHERE PK = ? AND SK = ?", "Parameters": [S("c#12345"), S("c#12345")]},
        {"Statement": "SELECT * FROM OnlineShop WHERE PK = 'nope' AND SK = 'nope'"},
    ], ReturnConsumedCapacity="TOTAL")
    assert r["Responses"][0]["TableName"] == "OnlineShop"
    assert list(r["Responses"][0]["Item"]) == ["Name"]
    assert r["Responses"][1] == {"TableName": "OnlineShop"}
    w = shop.batch_execute_statement(Statements=[
        {"Statement": "INSERT INTO OnlineShop VALUE {'PK': 'b#1', 'SK': 'b#1'}"},
        {"Statement": "INSERT INTO OnlineShop VALUE {'PK': 'c#12345', 'SK': 'c#12345'}"},
    ])
    assert "Error" not in w["Responses"][0]
    assert w["Responses"][1]["Error"]["Code"] == "DuplicateItem"


def test_execute_transaction(shop):
    statements = [
        {"Statement": "INSERT INTO OnlineShop VALUE {'PK': 'o#9', 'SK': 'o#9', 'Status': 'new'}"},
        {"Statement": "UPDATE OnlineShop SET Orders = 1 WHERE PK = 'c#23456' AND SK = 'c#23456'"},
        {"Statement": "EXISTS(SELECT * FROM OnlineShop WHERE PK = 'p#12345' AND SK = 'p#12345')"},
    ]
    r = shop.execute_transaction(TransactStatements=statements, ClientRequestToken="partiql-1",
                                 ReturnConsumedCapacity="TOTAL")
    assert r["ConsumedCapacity"][0]["TableName"] == "OnlineShop"
    # The same token and statements: replayed, nothing written twice.
    shop.execute_transaction(TransactStatements=statements, ClientRequestToken="partiql-1")
    with pytest.raises(ClientError) as e:
        shop.execute_transaction(TransactStatements=statements)
    assert e.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert [c["Code"] for c in e.value.response["CancellationReasons"]] == ["DuplicateItem", "None", "None"]
    g = shop.execute_transaction(TransactStatements=[
        {"Statement": "SELECT Status FROM OnlineShop WHERE PK = 'o#9' AND SK = 'o#9'"},
        {"Statement": "SELECT * FROM OnlineShop WHERE PK = 'o#10' AND SK = 'o#10'"}])
    assert g["Responses"] == [{"Item": {"Status": S("new")}}, {}]


def _query_all(shop, pk, **extra):
    return shop.query(TableName="OnlineShop", KeyConditionExpression="PK = :p",
                      ExpressionAttributeValues={":p": S(pk)}, ReturnConsumedCapacity="TOTAL", **extra)


@pytest.mark.parametrize("statement", [
    "SELECT * FROM OnlineShop WHERE PK IN ['o#12345', 'c#12345', 'nobody']",
    "SELECT * FROM OnlineShop WHERE PK = 'o#12345' OR PK = 'nobody' OR PK = ?",
])
def test_partition_key_in_runs_one_query_per_value(shop, statement):
    params = [S("c#12345")] if "?" in statement else []
    got = shop.execute_statement(Statement=statement, ReturnConsumedCapacity="TOTAL",
                                 **({"Parameters": params} if params else {}))
    # One Query per value, in key order, and the capacity of the three Queries.
    queries = [_query_all(shop, pk) for pk in ("c#12345", "nobody", "o#12345")]
    assert got["Items"] == [item for q in queries for item in q["Items"]]
    assert len(got["Items"]) >= 2
    assert got["ConsumedCapacity"]["CapacityUnits"] == sum(
        q["ConsumedCapacity"]["CapacityUnits"] for q in queries)
    assert "NextToken" not in got


def test_partition_key_in_pages_across_partitions(shop):
    statement = "SELECT PK, SK FROM OnlineShop WHERE PK IN ['o#12345', 'c#12345']"
    everything = shop.execute_statement(Statement=statement)["Items"]
    items, token, pages = [], None, 0
    while True:
        kwargs = {"Statement": statement, "Limit": 1, "ConsistentRead": True}
        if token:
            kwargs["NextToken"] = token
        page = shop.execute_statement(**kwargs)
        assert len(page["Items"]) <= 1
        items += page["Items"]
        pages += 1
        token = page.get("NextToken")
        if not token:
            break
    assert items == everything
    assert pages >= len(everything)
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="SELECT * FROM OnlineShop WHERE PK IN [" +
                               ", ".join(f"'k{i}'" for i in range(51)) + "]")
    assert e.value.response["Error"]["Code"] == "ValidationException"


def test_index_in_and_is_null(shop):
    got = shop.execute_statement(
        Statement='SELECT * FROM "OnlineShop"."GSI2" WHERE "GSI2-PK" IN [?, ?]',
        Parameters=[S("w#12345"), S("c#12345")], ReturnConsumedCapacity="INDEXES")
    queries = [shop.query(TableName="OnlineShop", IndexName="GSI2", KeyConditionExpression="#p = :v",
                          ExpressionAttributeNames={"#p": "GSI2-PK"},
                          ExpressionAttributeValues={":v": S(v)}, ReturnConsumedCapacity="INDEXES")
               for v in ("c#12345", "w#12345")]
    assert got["Items"] == [item for q in queries for item in q["Items"]]
    assert got["ConsumedCapacity"]["GlobalSecondaryIndexes"]["GSI2"]["CapacityUnits"] == sum(
        q["ConsumedCapacity"]["GlobalSecondaryIndexes"]["GSI2"]["CapacityUnits"] for q in queries)
    shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'n#1', 'SK': 'n#1', 'Note': NULL}")
    shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'n#1', 'SK': 'n#2', 'Note': 'x'}")
    shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'n#1', 'SK': 'n#3'}")
    null = shop.execute_statement(Statement="SELECT SK FROM OnlineShop WHERE PK = 'n#1' AND Note IS NULL")
    assert null["Items"] == [{"SK": S("n#1")}]
    not_null = shop.execute_statement(Statement="SELECT SK FROM OnlineShop WHERE PK = 'n#1' AND Note IS NOT NULL")
    assert not_null["Items"] == [{"SK": S("n#2")}, {"SK": S("n#3")}]
    missing = shop.execute_statement(Statement="SELECT SK FROM OnlineShop WHERE PK = 'n#1' AND Note IS MISSING")
    assert missing["Items"] == [{"SK": S("n#3")}]


def test_returning_rules_in_batches_and_transactions(shop):
    shop.execute_statement(Statement="INSERT INTO OnlineShop VALUE {'PK': 'r#1', 'SK': 'r#1', 'V': 'old'}")
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement="DELETE FROM OnlineShop WHERE PK = 'r#1' AND SK = 'r#1' RETURNING ALL NEW *")
    assert e.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in "
                   "DELETE statements."}
    with pytest.raises(ClientError) as e:
        shop.execute_transaction(TransactStatements=[
            {"Statement": "UPDATE OnlineShop SET V = 'new' WHERE PK = 'r#1' AND SK = 'r#1' RETURNING ALL NEW *"}])
    assert e.value.response["Error"]["Message"] == \
        "Validation failed in TransactStatements[0]: RETURNING clause is not supported in ExecuteTransaction."
    r = shop.batch_execute_statement(Statements=[
        {"Statement": "UPDATE OnlineShop SET V = 'new' WHERE PK = 'r#1' AND SK = 'r#1' RETURNING MODIFIED NEW *"}])
    assert r["Responses"] == [{"TableName": "OnlineShop", "Item": {"V": S("new")}}]
    with pytest.raises(ClientError) as e:
        shop.execute_statement(Statement='SELECT * FROM "OnlineShop"."GSI2" WHERE "GSI2-PK" = \'x\'',
                               ConsistentRead=True)
    assert e.value.response["Error"]["Message"] == \
        "Strongly consistent read is not supported on Global Secondary Indexes"
