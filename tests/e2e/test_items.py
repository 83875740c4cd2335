"""Item operations through boto3 against a real `dynarock serve`."""

from decimal import Decimal

import pytest
from boto3.dynamodb.types import Binary
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name

EVERY_TYPE = {
    "pk": {"S": "every-type"},
    "s": {"S": "héllo wörld ✓"},
    "empty_s": {"S": ""},
    "n_int": {"N": "42"},
    "n_neg": {"N": "-17.25"},
    "n_big": {"N": "12345678901234567890123456789012345678"},
    "n_small": {"N": "1E-130"},
    "b": {"B": b"\x00\x01\x02\xff binary"},
    "empty_b": {"B": b""},
    "t": {"BOOL": True},
    "f": {"BOOL": False},
    "null": {"NULL": True},
    "l": {"L": [{"S": "a"}, {"N": "1"}, {"BOOL": False}, {"NULL": True},
                {"L": []}, {"M": {}}]},
    "m": {"M": {"inner": {"S": "x"}, "count": {"N": "3"},
                "deeper": {"M": {"list": {"L": [{"M": {"k": {"SS": ["v"]}}}]}}}}},
    "ss": {"SS": ["x", "y", "z"]},
    "ns": {"NS": ["1", "2.5", "-3"]},
    "bs": {"BS": [b"\x01", b"\x02\x03"]},
}

SET_TYPES = ("SS", "NS", "BS")


def normalize(value):
    """Makes attribute values comparable: sets are unordered, and numbers
    compare by value (DynamoDB answers with its own canonical text, e.g.
    1E+2 as 100)."""
    (tag, inner), = value.items()
    if tag == "N":
        return {"N": Decimal(inner)}
    if tag == "NS":
        return {"NS": sorted(Decimal(n) for n in inner)}
    if tag in SET_TYPES:
        return {tag: sorted(inner)}
    if tag == "L":
        return {"L": [normalize(v) for v in inner]}
    if tag == "M":
        return {"M": {k: normalize(v) for k, v in inner.items()}}
    return value


def normalize_item(item):
    return {k: normalize(v) for k, v in item.items()}


def test_put_get_every_type(ddb, table):
    ddb.put_item(TableName=table, Item=EVERY_TYPE)
    got = ddb.get_item(TableName=table, Key={"pk": {"S": "every-type"}},
                       ConsistentRead=True)
    assert normalize_item(got["Item"]) == normalize_item(EVERY_TYPE)


def test_get_missing_item_has_no_item(ddb, table):
    got = ddb.get_item(TableName=table, Key={"pk": {"S": "nobody"}})
    assert "Item" not in got


def test_each_type_alone(ddb, table):
    for name, value in EVERY_TYPE.items():
        if name == "pk":
            continue
        item = {"pk": {"S": "alone-" + name}, "v": value}
        ddb.put_item(TableName=table, Item=item)
        got = ddb.get_item(TableName=table, Key={"pk": item["pk"]})["Item"]
        assert normalize_item(got) == normalize_item(item), name


def test_number_and_binary_keys(ddb):
    n_table = create_simple_table(ddb, unique_name("nkey"), hash_type="N", range_key="B")
    key = {"pk": {"N": "-1.5"}, "sk": {"B": b"\x00\xff"}}
    ddb.put_item(TableName=n_table, Item={**key, "v": {"S": "x"}})
    got = ddb.get_item(TableName=n_table, Key=key)["Item"]
    assert got["v"] == {"S": "x"}
    assert got["sk"] == {"B": b"\x00\xff"}
    ddb.delete_table(TableName=n_table)


def test_put_replaces_and_returns_all_old(ddb, table):
    key = {"pk": {"S": "rv"}}
    first = ddb.put_item(TableName=table, Item={**key, "v": {"N": "1"}},
                         ReturnValues="ALL_OLD")
    assert "Attributes" not in first
    second = ddb.put_item(TableName=table, Item={**key, "w": {"S": "two"}},
                          ReturnValues="ALL_OLD")
    assert second["Attributes"] == {**key, "v": {"N": "1"}}
    got = ddb.get_item(TableName=table, Key=key)["Item"]
    assert got == {**key, "w": {"S": "two"}}  # replaced whole, not merged


def test_delete_item_returns_all_old(ddb, table):
    key = {"pk": {"S": "del"}}
    ddb.put_item(TableName=table, Item={**key, "v": {"SS": ["a", "b"]}})
    deleted = ddb.delete_item(TableName=table, Key=key, ReturnValues="ALL_OLD")
    assert normalize_item(deleted["Attributes"]) == {**key, "v": {"SS": ["a", "b"]}}
    assert "Item" not in ddb.get_item(TableName=table, Key=key)
    # Deleting what is not there succeeds and returns nothing.
    again = ddb.delete_item(TableName=table, Key=key, ReturnValues="ALL_OLD")
    assert "Attributes" not in again


def test_resource_api_round_trip(ddb_resource, table):
    t = ddb_resource.Table(table)
    item = {"pk": "res", "n": Decimal("3.14"), "b": Binary(b"\x01\x02"),
            "bool": True, "none": None, "list": [1, "two", [Decimal("3")]],
            "map": {"a": {"b": "c"}}, "ss": {"p", "q"}, "ns": {1, 2},
            "bs": {Binary(b"x"), Binary(b"y")}}
    t.put_item(Item=item)
    got = t.get_item(Key={"pk": "res"})["Item"]
    assert got == item


def test_item_errors(ddb, table):
    # Key attribute of the wrong type.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table, Item={"pk": {"N": "1"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    assert "key" in e.value.response["Error"]["Message"].lower()

    # Missing key attribute.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table, Item={"other": {"S": "x"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"

    # Key with an extra attribute in GetItem.
    with pytest.raises(ClientError) as e:
        ddb.get_item(TableName=table, Key={"pk": {"S": "a"}, "x": {"S": "b"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"

    # Empty set.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "s": {"SS": []}})
    assert e.value.response["Error"]["Code"] == "ValidationException"

    # A number DynamoDB cannot represent.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table, Item={"pk": {"S": "a"}, "n": {"N": "1E+126"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"

    # An item over 400 KB.
    with pytest.raises(ClientError) as e:
        ddb.put_item(TableName=table,
                     Item={"pk": {"S": "big"}, "v": {"S": "x" * (400 * 1024 + 1)}})
    err = e.value.response["Error"]
    assert err["Code"] == "ValidationException"
    assert "size" in err["Message"].lower()


def test_large_item_under_the_limit(ddb, table):
    value = "y" * (390 * 1024)
    ddb.put_item(TableName=table, Item={"pk": {"S": "large"}, "v": {"S": value}})
    got = ddb.get_item(TableName=table, Key={"pk": {"S": "large"}})["Item"]
    assert got["v"]["S"] == value
