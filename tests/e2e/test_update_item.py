"""UpdateItem, conditions and projections through boto3 against a real
`dynarock serve`: update expressions of every kind, ReturnValues, conditions
that fail with ConditionalCheckFailedException (and its Item), the legacy
Expected / AttributeUpdates / AttributesToGet parameters through the
low-level client, and boto3's Table resource with Attr/Key conditions."""

import http.client
import json
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Attr, Key
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name


def error_of(excinfo):
    return excinfo.value.response["Error"]


def get(ddb, table, pk):
    return ddb.get_item(TableName=table, Key={"pk": {"S": pk}},
                        ConsistentRead=True).get("Item")


def test_update_creates_item_from_key(ddb, table):
    out = ddb.update_item(
        TableName=table, Key={"pk": {"S": "u1"}},
        UpdateExpression="SET a = :a, #b = :b",
        ExpressionAttributeNames={"#b": "b"},
        ExpressionAttributeValues={":a": {"N": "1"}, ":b": {"S": "x"}},
        ReturnValues="ALL_NEW")
    assert out["Attributes"] == {"pk": {"S": "u1"}, "a": {"N": "1"}, "b": {"S": "x"}}
    assert get(ddb, table, "u1") == out["Attributes"]


def test_update_without_changes_still_creates_item(ddb, table):
    ddb.update_item(TableName=table, Key={"pk": {"S": "bare"}})
    assert get(ddb, table, "bare") == {"pk": {"S": "bare"}}
    ddb.update_item(TableName=table, Key={"pk": {"S": "bare1"}}, AttributeUpdates={})
    assert get(ddb, table, "bare1") == {"pk": {"S": "bare1"}}
    # Removing everything but the key keeps the item.
    ddb.put_item(TableName=table, Item={"pk": {"S": "bare2"}, "a": {"N": "1"}})
    ddb.update_item(TableName=table, Key={"pk": {"S": "bare2"}}, UpdateExpression="REMOVE a")
    assert get(ddb, table, "bare2") == {"pk": {"S": "bare2"}}


def test_removals_alone_do_not_create_an_item(ddb, table):
    out = ddb.update_item(TableName=table, Key={"pk": {"S": "ghost"}},
                          UpdateExpression="REMOVE a", ReturnValues="ALL_NEW")
    assert "Attributes" not in out
    ddb.update_item(TableName=table, Key={"pk": {"S": "ghost"}},
                    AttributeUpdates={"a": {"Action": "DELETE"}})
    assert get(ddb, table, "ghost") is None


def test_update_expressions_of_every_kind(ddb, table):
    ddb.put_item(TableName=table, Item={
        "pk": {"S": "k"},
        "n": {"N": "10"},
        "price": {"N": "0.1"},
        "l": {"L": [{"S": "a"}, {"S": "b"}, {"S": "c"}]},
        "m": {"M": {"deep": {"M": {"x": {"N": "1"}}}}},
        "ss": {"SS": ["p", "q"]},
        "ns": {"NS": ["1", "2"]},
        "drop": {"S": "bye"},
    })
    ddb.update_item(
        TableName=table, Key={"pk": {"S": "k"}},
        UpdateExpression=(
            "SET n = n - :one, price = price + :tenth, m.deep.y = :one, "
            "l[1] = :B, tail = list_append(:head, l), fresh = if_not_exists(fresh, :zero) "
            "REMOVE #drop, l[0] "
            "ADD ss :more, visits :one "
            "DELETE ns :two"),
        ExpressionAttributeNames={"#drop": "drop"},
        ExpressionAttributeValues={
            ":one": {"N": "1"}, ":tenth": {"N": "0.2"}, ":zero": {"N": "0"},
            ":B": {"S": "B"}, ":head": {"L": [{"S": "z"}]},
            ":more": {"SS": ["r"]}, ":two": {"NS": ["2"]}})
    item = get(ddb, table, "k")
    assert item["n"] == {"N": "9"}
    assert item["price"] == {"N": "0.3"}  # exact decimal arithmetic
    assert item["m"] == {"M": {"deep": {"M": {"x": {"N": "1"}, "y": {"N": "1"}}}}}
    # l[1] was set and l[0] removed, both by the original indexes.
    assert item["l"] == {"L": [{"S": "B"}, {"S": "c"}]}
    assert item["tail"] == {"L": [{"S": "z"}, {"S": "a"}, {"S": "b"}, {"S": "c"}]}
    assert item["fresh"] == {"N": "0"}
    assert "drop" not in item
    assert sorted(item["ss"]["SS"]) == ["p", "q", "r"]
    assert item["visits"] == {"N": "1"}
    assert item["ns"] == {"NS": ["1"]}


def test_big_numbers_stay_exact(ddb, table):
    nines = "9" * 38
    ddb.put_item(TableName=table, Item={"pk": {"S": "big"}, "n": {"N": nines}})
    # 38 nines + 0.1 needs 39 significant digits: DynamoDB does not round.
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=table, Key={"pk": {"S": "big"}},
                        UpdateExpression="SET n = n + :tenth",
                        ExpressionAttributeValues={":tenth": {"N": "0.1"}})
    assert error_of(e)["Code"] == "ValidationException"
    assert get(ddb, table, "big")["n"] == {"N": nines}
    ddb.update_item(TableName=table, Key={"pk": {"S": "big"}},
                    UpdateExpression="SET n = n - :one",
                    ExpressionAttributeValues={":one": {"N": "1"}})
    assert get(ddb, table, "big")["n"] == {"N": "9" * 37 + "8"}
    ddb.update_item(TableName=table, Key={"pk": {"S": "big"}},
                    UpdateExpression="ADD n :two",
                    ExpressionAttributeValues={":two": {"N": "2"}})
    assert get(ddb, table, "big")["n"] == {"N": "1" + "0" * 38}


@pytest.mark.parametrize("return_values,expected", [
    ("NONE", None),
    ("ALL_OLD", {"pk": {"S": "rv"}, "a": {"N": "1"}, "b": {"S": "keep"}}),
    ("UPDATED_OLD", {"a": {"N": "1"}}),
    ("ALL_NEW", {"pk": {"S": "rv"}, "a": {"N": "2"}, "b": {"S": "keep"}, "c": {"N": "1"}}),
    ("UPDATED_NEW", {"a": {"N": "2"}, "c": {"N": "1"}}),
])
def test_return_values(ddb, table, return_values, expected):
    ddb.put_item(TableName=table, Item={"pk": {"S": "rv"}, "a": {"N": "1"},
                                        "b": {"S": "keep"}})
    out = ddb.update_item(TableName=table, Key={"pk": {"S": "rv"}},
                          UpdateExpression="SET a = a + :one, c = :one",
                          ExpressionAttributeValues={":one": {"N": "1"}},
                          ReturnValues=return_values)
    assert out.get("Attributes") == expected


def test_condition_failure_is_conditional_check_failed(ddb, table):
    ddb.put_item(TableName=table, Item={"pk": {"S": "c"}, "v": {"N": "1"}})
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=table, Key={"pk": {"S": "c"}},
                        UpdateExpression="SET v = :two",
                        ConditionExpression="v = :two",
                        ExpressionAttributeValues={":two": {"N": "2"}})
    err = error_of(e)
    assert err["Code"] == "ConditionalCheckFailedException"
    assert err["Message"] == "The conditional request failed"
    assert "Item" not in e.value.response
    assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert get(ddb, table, "c") == {"pk": {"S": "c"}, "v": {"N": "1"}}


def raw_call(server, operation, body):
    """POSTs `body` as `operation` under the `ddb` fixture's credentials (the
    Debian botocore predates ReturnValuesOnConditionCheckFailure and drops
    the Item of a ConditionalCheckFailedException)."""
    auth = ("AWS4-HMAC-SHA256 Credential=AKIDE2E/20250101/us-east-1/dynamodb/"
            "aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=abc")
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    conn.request("POST", "/", body=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0", "Authorization": auth,
        "X-Amz-Date": "20250101T000000Z",
        "X-Amz-Target": "DynamoDB_20120810." + operation})
    res = conn.getresponse()
    data = json.loads(res.read())
    conn.close()
    return res.status, data


def test_condition_failure_returns_old_item_when_asked(server, ddb, table):
    item = {"pk": {"S": "c2"}, "v": {"N": "1"}, "s": {"SS": ["x"]}}
    ddb.put_item(TableName=table, Item=item)
    failed = {"__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
              "message": "The conditional request failed"}
    for operation, body in (
        ("UpdateItem", {"Key": {"pk": {"S": "c2"}}, "UpdateExpression": "REMOVE v",
                        "ConditionExpression": "attribute_not_exists(v)"}),
        ("PutItem", {"Item": {"pk": {"S": "c2"}},
                     "ConditionExpression": "attribute_not_exists(pk)"}),
        ("DeleteItem", {"Key": {"pk": {"S": "c2"}}, "ConditionExpression": "v > :v",
                        "ExpressionAttributeValues": {":v": {"N": "5"}}}),
        ("DeleteItem", {"Key": {"pk": {"S": "c2"}},
                        "Expected": {"v": {"Value": {"N": "5"}}}}),
    ):
        body["TableName"] = table
        status, data = raw_call(server, operation, body)
        assert (status, data) == (400, failed), operation
        body["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        status, data = raw_call(server, operation, body)
        assert (status, data) == (400, {**failed, "Item": item}), operation
    # The exception boto3 raises is the modeled one.
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.delete_item(TableName=table, Key={"pk": {"S": "c2"}},
                        ConditionExpression="attribute_not_exists(s)")
    assert get(ddb, table, "c2") == item


def test_put_if_absent_and_delete_if_matches(ddb, table):
    ddb.put_item(TableName=table, Item={"pk": {"S": "once"}, "v": {"N": "1"}},
                 ConditionExpression="attribute_not_exists(pk)")
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.put_item(TableName=table, Item={"pk": {"S": "once"}, "v": {"N": "2"}},
                     ConditionExpression="attribute_not_exists(pk)")
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.delete_item(TableName=table, Key={"pk": {"S": "once"}},
                        ConditionExpression="v IN (:a, :b)",
                        ExpressionAttributeValues={":a": {"N": "5"}, ":b": {"N": "6"}})
    ddb.delete_item(TableName=table, Key={"pk": {"S": "once"}},
                    ConditionExpression="v BETWEEN :lo AND :hi AND size(pk) = :four",
                    ExpressionAttributeValues={":lo": {"N": "0"}, ":hi": {"N": "1"},
                                               ":four": {"N": "4"}})
    assert get(ddb, table, "once") is None


def test_validation_errors(ddb, table):
    cases = [
        (dict(UpdateExpression="SET pk = :v", ExpressionAttributeValues={":v": {"S": "x"}}),
         "One or more parameter values were invalid: Cannot update attribute pk. "
         "This attribute is part of the key"),
        (dict(UpdateExpression="SET a = :v"),
         "Invalid UpdateExpression: An expression attribute value used in expression "
         "is not defined; attribute value: :v"),
        (dict(UpdateExpression="SET a = :v",
              ExpressionAttributeValues={":v": {"S": "x"}, ":w": {"S": "y"}}),
         "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}"),
        (dict(UpdateExpression="SET a = :v, a.b = :v",
              ExpressionAttributeValues={":v": {"S": "x"}}),
         "Invalid UpdateExpression: Two document paths overlap with each other; must "
         "remove or rewrite one of these paths; path one: [a], path two: [a, b]"),
        (dict(UpdateExpression="SET a = :v SET b = :v",
              ExpressionAttributeValues={":v": {"S": "x"}}),
         'Invalid UpdateExpression: The "SET" section can only be used once in an '
         "update expression;"),
        (dict(UpdateExpression="SET status = :v",
              ExpressionAttributeValues={":v": {"S": "x"}}),
         "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved "
         "keyword: status"),
        (dict(UpdateExpression="SET a = :v", ConditionExpression="a = ",
              ExpressionAttributeValues={":v": {"S": "x"}}),
         'Invalid ConditionExpression: Syntax error; token: "<EOF>", near: "= "'),
        (dict(UpdateExpression="SET a = :v",
              AttributeUpdates={"a": {"Value": {"S": "x"}}},
              ExpressionAttributeValues={":v": {"S": "x"}}),
         "Can not use both expression and non-expression parameters in the same request: "
         "Non-expression parameters: {AttributeUpdates} Expression parameters: "
         "{UpdateExpression}"),
        (dict(AttributeUpdates={"a": {"Value": {"S": "x"}}},
              ExpressionAttributeNames={"#a": "a"}),
         "ExpressionAttributeNames can only be specified when using expressions"),
        (dict(UpdateExpression="SET a = :v", ExpressionAttributeValues={}),
         "ExpressionAttributeValues must not be empty"),
        (dict(UpdateExpression="ADD a :v", ExpressionAttributeValues={":v": {"S": "x"}}),
         "Invalid UpdateExpression: Incorrect operand type for operator or function; "
         "operator: ADD, operand type: STRING"),
        (dict(UpdateExpression="SET a = b + :v", ExpressionAttributeValues={":v": {"N": "1"}}),
         "The provided expression refers to an attribute that does not exist in the item"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ClientError) as e:
            ddb.update_item(TableName=table, Key={"pk": {"S": "err"}}, **kwargs)
        assert error_of(e)["Code"] == "ValidationException", kwargs
        assert error_of(e)["Message"] == message, kwargs
    assert get(ddb, table, "err") is None


def test_update_over_400kb_is_refused(ddb, table):
    ddb.put_item(TableName=table, Item={"pk": {"S": "huge"}, "a": {"S": "x" * 300_000}})
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=table, Key={"pk": {"S": "huge"}},
                        UpdateExpression="SET b = :b",
                        ExpressionAttributeValues={":b": {"S": "y" * 200_000}})
    assert error_of(e)["Message"] == \
        "Item size to update has exceeded the maximum allowed size"


def test_legacy_expected_and_attribute_updates(ddb, table):
    key = {"pk": {"S": "legacy"}}
    out = ddb.update_item(TableName=table, Key=key,
                          AttributeUpdates={
                              "a": {"Value": {"N": "1"}, "Action": "PUT"},
                              "l": {"Value": {"L": [{"S": "x"}]}, "Action": "ADD"},
                              "n": {"Value": {"N": "5"}, "Action": "ADD"},
                              "s": {"Value": {"SS": ["p", "q"]}, "Action": "PUT"}},
                          Expected={"a": {"Exists": False}},
                          ReturnValues="ALL_NEW")
    assert out["Attributes"]["l"] == {"L": [{"S": "x"}]}
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.update_item(TableName=table, Key=key,
                        AttributeUpdates={"a": {"Value": {"N": "2"}}},
                        Expected={"a": {"Exists": False}})
    ddb.update_item(TableName=table, Key=key,
                    AttributeUpdates={"a": {"Value": {"N": "2"}, "Action": "PUT"},
                                      "l": {"Value": {"L": [{"S": "y"}]}, "Action": "ADD"},
                                      "s": {"Value": {"SS": ["p"]}, "Action": "DELETE"},
                                      "n": {"Action": "DELETE"}},
                    Expected={"a": {"ComparisonOperator": "EQ",
                                    "AttributeValueList": [{"N": "1"}]},
                              "l": {"ComparisonOperator": "NOT_NULL"}},
                    ConditionalOperator="AND")
    assert get(ddb, table, "legacy") == {
        "pk": {"S": "legacy"}, "a": {"N": "2"},
        "l": {"L": [{"S": "x"}, {"S": "y"}]}, "s": {"SS": ["q"]}}
    # NOT_CONTAINS is false for a missing attribute; NE is true.
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.delete_item(TableName=table, Key=key,
                        Expected={"zz": {"ComparisonOperator": "NOT_CONTAINS",
                                         "AttributeValueList": [{"S": "q"}]}})
    ddb.put_item(TableName=table, Item={**key, "a": {"N": "3"}},
                 Expected={"zz": {"ComparisonOperator": "NE",
                                  "AttributeValueList": [{"S": "q"}]},
                           "a": {"Value": {"N": "2"}}},
                 ConditionalOperator="AND")
    assert get(ddb, table, "legacy") == {**key, "a": {"N": "3"}}


def test_legacy_validation_messages(ddb, table):
    key = {"pk": {"S": "lv"}}
    cases = [
        (dict(Expected={"a": {"Exists": True}}),
         "One or more parameter values were invalid: Value must be provided when "
         "Exists is true for Attribute: a"),
        (dict(Expected={"a": {"ComparisonOperator": "BEGINS_WITH",
                              "AttributeValueList": [{"N": "3"}]}}),
         "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH "
         "is not valid for N AttributeValue type"),
        (dict(Expected={"a": {"ComparisonOperator": "BETWEEN",
                              "AttributeValueList": [{"N": "4"}, {"N": "3"}]}}),
         "The BETWEEN condition was provided a range where the lower bound is "
         "greater than the upper bound"),
        (dict(Expected={"a": {"ComparisonOperator": "EQ",
                              "AttributeValueList": [{"N": "4"}, {"N": "3"}]}}),
         "One or more parameter values were invalid: Invalid number of argument(s) "
         "for the EQ ComparisonOperator"),
        (dict(Expected={"a": {"Value": {"N": "1"}}}, ConditionalOperator="OR"),
         "ConditionalOperator can only be used when Filter or Expected has two or "
         "more elements"),
        (dict(AttributeUpdates={"a": {"Action": "ADD"}}),
         "One or more parameter values were invalid: Only DELETE action is allowed "
         "when no attribute value is specified"),
        (dict(AttributeUpdates={"a": {"Action": "ADD", "Value": {"S": "x"}}}),
         "One or more parameter values were invalid: ADD action is not supported for "
         "the type S"),
        (dict(AttributeUpdates={"pk": {"Action": "PUT", "Value": {"S": "x"}}}),
         "One or more parameter values were invalid: Cannot update attribute pk. "
         "This attribute is part of the key"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ClientError) as e:
            ddb.update_item(TableName=table, Key=key, **kwargs)
        assert error_of(e)["Code"] == "ValidationException", kwargs
        assert error_of(e)["Message"] == message, kwargs


def test_get_item_projections(ddb, table):
    ddb.put_item(TableName=table, Item={
        "pk": {"S": "p"}, "name": {"S": "n"}, "size": {"N": "3"},
        "m": {"M": {"a": {"N": "1"}, "b": {"L": [{"S": "x"}, {"S": "y"}]}}}})
    got = ddb.get_item(TableName=table, Key={"pk": {"S": "p"}},
                       ProjectionExpression="#n, m.b[1], #s",
                       ExpressionAttributeNames={"#n": "name", "#s": "size"})
    assert got["Item"] == {"name": {"S": "n"}, "size": {"N": "3"},
                           "m": {"M": {"b": {"L": [{"S": "y"}]}}}}
    got = ddb.get_item(TableName=table, Key={"pk": {"S": "p"}},
                       AttributesToGet=["pk", "size"])
    assert got["Item"] == {"pk": {"S": "p"}, "size": {"N": "3"}}
    got = ddb.get_item(TableName=table, Key={"pk": {"S": "p"}},
                       ProjectionExpression="absent")
    assert got["Item"] == {}
    with pytest.raises(ClientError) as e:
        ddb.get_item(TableName=table, Key={"pk": {"S": "p"}},
                     ProjectionExpression="pk", AttributesToGet=["pk"])
    assert error_of(e)["Message"] == (
        "Can not use both expression and non-expression parameters in the same "
        "request: Non-expression parameters: {AttributesToGet} Expression "
        "parameters: {ProjectionExpression}")


def test_table_resource_with_conditions(ddb_resource, table):
    t = ddb_resource.Table(table)
    t.put_item(Item={"pk": "res", "count": 1, "tags": {"a"}, "status": "new"},
               ConditionExpression=Attr("pk").not_exists())
    out = t.update_item(
        Key={"pk": "res"},
        UpdateExpression="SET #c = #c + :inc, #s = :s ADD tags :t",
        ConditionExpression=Attr("status").eq("new") & Attr("count").lt(10)
        & Attr("tags").contains("a") & Key("pk").begins_with("r"),
        ExpressionAttributeNames={"#c": "count", "#s": "status"},
        ExpressionAttributeValues={":inc": 2, ":s": "seen", ":t": {"b"}},
        ReturnValues="ALL_NEW")
    assert out["Attributes"] == {"pk": "res", "count": Decimal(3), "tags": {"a", "b"},
                                 "status": "seen"}
    with pytest.raises(ClientError) as e:
        t.update_item(Key={"pk": "res"}, UpdateExpression="REMOVE tags",
                      ConditionExpression=Attr("status").is_in(["new", "old"])
                      | Attr("count").between(5, 9))
    assert error_of(e)["Code"] == "ConditionalCheckFailedException"
    t.delete_item(Key={"pk": "res"},
                  ConditionExpression=Attr("tags").size().eq(2)
                  & Attr("status").attribute_type("S") & ~Attr("gone").exists())
    assert "Item" not in t.get_item(Key={"pk": "res"})


def test_table_resource_counter_from_many_requests(ddb_resource, table):
    t = ddb_resource.Table(table)
    for _ in range(20):
        t.update_item(Key={"pk": "ctr"}, UpdateExpression="ADD hits :one",
                      ExpressionAttributeValues={":one": 1})
    assert t.get_item(Key={"pk": "ctr"})["Item"]["hits"] == 20


def test_composite_key_update(ddb):
    name = create_simple_table(ddb, unique_name("upd"), range_key="N")
    key = {"pk": {"S": "p"}, "sk": {"N": "1.50"}}
    ddb.update_item(TableName=name, Key=key, UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"S": "x"}})
    got = ddb.get_item(TableName=name, Key={"pk": {"S": "p"}, "sk": {"N": "1.5"}})
    assert got["Item"] == {"pk": {"S": "p"}, "sk": {"N": "1.5"}, "v": {"S": "x"}}
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=name, Key={"pk": {"S": "p"}},
                        UpdateExpression="SET v = :v",
                        ExpressionAttributeValues={":v": {"S": "x"}})
    assert error_of(e)["Message"] == "The provided key element does not match the schema"
    with pytest.raises(ClientError) as e:
        ddb.update_item(TableName=name, Key=key, UpdateExpression="REMOVE sk")
    assert error_of(e)["Message"] == (
        "One or more parameter values were invalid: Cannot update attribute sk. "
        "This attribute is part of the key")
    ddb.delete_table(TableName=name)
