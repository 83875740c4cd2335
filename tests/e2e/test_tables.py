"""Table operations through boto3 against a real `dynarock serve`."""

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name

FAST_WAIT = {"Delay": 0.05, "MaxAttempts": 200}


def error_of(excinfo):
    return excinfo.value.response["Error"]


def test_create_describe_delete_with_waiters(ddb, table_name):
    created = ddb.create_table(
        TableName=table_name,
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"}],
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 7})
    desc = created["TableDescription"]
    assert desc["TableName"] == table_name
    assert desc["TableStatus"] in ("CREATING", "ACTIVE")
    assert desc["KeySchema"] == [{"AttributeName": "pk", "KeyType": "HASH"},
                                 {"AttributeName": "sk", "KeyType": "RANGE"}]
    assert desc["TableArn"].endswith(":table/" + table_name)

    ddb.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig=FAST_WAIT)
    table = ddb.describe_table(TableName=table_name)["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["ItemCount"] == 0
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 5
    assert table["ProvisionedThroughput"]["WriteCapacityUnits"] == 7
    assert sorted(a["AttributeName"] for a in table["AttributeDefinitions"]) == ["pk", "sk"]

    deleted = ddb.delete_table(TableName=table_name)["TableDescription"]
    assert deleted["TableName"] == table_name
    ddb.get_waiter("table_not_exists").wait(TableName=table_name, WaiterConfig=FAST_WAIT)
    with pytest.raises(ClientError) as e:
        ddb.describe_table(TableName=table_name)
    assert error_of(e)["Code"] == "ResourceNotFoundException"


def test_list_tables_pages(ddb):
    prefix = unique_name("list")
    names = [f"{prefix}-{i:02d}" for i in range(7)]
    for n in names:
        ddb.create_table(TableName=n,
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST")
    for n in names:
        ddb.get_waiter("table_exists").wait(TableName=n, WaiterConfig=FAST_WAIT)

    # Walk every page by hand with Limit + ExclusiveStartTableName.
    seen = []
    kwargs = {"Limit": 3}
    pages = 0
    while True:
        page = ddb.list_tables(**kwargs)
        pages += 1
        assert len(page["TableNames"]) <= 3
        seen += page["TableNames"]
        if "LastEvaluatedTableName" not in page:
            break
        assert page["LastEvaluatedTableName"] == page["TableNames"][-1]
        kwargs["ExclusiveStartTableName"] = page["LastEvaluatedTableName"]
    assert seen == sorted(seen)
    assert [n for n in seen if n.startswith(prefix)] == names
    assert pages >= 3

    # Starting after a name lists only later names.
    after = ddb.list_tables(ExclusiveStartTableName=names[4], Limit=100)["TableNames"]
    assert [n for n in after if n.startswith(prefix)] == names[5:]

    # boto3's paginator follows the same tokens.
    paginated = []
    for page in ddb.get_paginator("list_tables").paginate(PaginationConfig={"PageSize": 2}):
        paginated += page["TableNames"]
    assert [n for n in paginated if n.startswith(prefix)] == names

    for n in names:
        ddb.delete_table(TableName=n)


def test_update_table_throughput(ddb, table_name):
    ddb.create_table(TableName=table_name,
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    ddb.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig=FAST_WAIT)
    updated = ddb.update_table(
        TableName=table_name,
        ProvisionedThroughput={"ReadCapacityUnits": 10, "WriteCapacityUnits": 20})
    assert updated["TableDescription"]["TableName"] == table_name
    ddb.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig=FAST_WAIT)
    table = ddb.describe_table(TableName=table_name)["Table"]
    assert table["ProvisionedThroughput"]["ReadCapacityUnits"] == 10
    assert table["ProvisionedThroughput"]["WriteCapacityUnits"] == 20


def test_update_table_to_on_demand(ddb, table_name):
    ddb.create_table(TableName=table_name,
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1})
    ddb.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig=FAST_WAIT)
    ddb.update_table(TableName=table_name, BillingMode="PAY_PER_REQUEST")
    ddb.get_waiter("table_exists").wait(TableName=table_name, WaiterConfig=FAST_WAIT)
    table = ddb.describe_table(TableName=table_name)["Table"]
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"


def test_create_existing_table_is_resource_in_use(ddb, table):
    with pytest.raises(ClientError) as e:
        create_simple_table(ddb, table)
    err = error_of(e)
    assert err["Code"] == "ResourceInUseException"
    assert table in err["Message"]
    assert e.value.response["ResponseMetadata"]["HTTPStatusCode"] == 400


def test_missing_table_is_resource_not_found(ddb):
    name = unique_name("missing")
    for call in (lambda: ddb.describe_table(TableName=name),
                 lambda: ddb.delete_table(TableName=name),
                 lambda: ddb.get_item(TableName=name, Key={"pk": {"S": "x"}}),
                 lambda: ddb.put_item(TableName=name, Item={"pk": {"S": "x"}})):
        with pytest.raises(ClientError) as e:
            call()
        err = error_of(e)
        assert err["Code"] == "ResourceNotFoundException"
        assert "Requested resource not found" in err["Message"]


def test_invalid_definitions_are_validation_errors(ddb, table_name):
    # The key attribute is not defined.
    with pytest.raises(ClientError) as e:
        ddb.create_table(TableName=table_name,
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "other", "AttributeType": "S"}],
                         BillingMode="PAY_PER_REQUEST")
    assert error_of(e)["Code"] == "ValidationException"

    # Provisioned table without ProvisionedThroughput.
    with pytest.raises(ClientError) as e:
        ddb.create_table(TableName=table_name,
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    assert error_of(e)["Code"] == "ValidationException"

    # A table name with a character DynamoDB does not allow (botocore only
    # checks the length).
    with pytest.raises(ClientError) as e:
        ddb.describe_table(TableName="bad name!")
    err = error_of(e)
    assert err["Code"] == "ValidationException"
    assert "tableName" in err["Message"] or "TableName" in err["Message"]
