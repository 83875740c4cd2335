"""The boto3-shaped client: method names, kwargs, response dicts and errors
as boto3's, against the real engine."""

import botocore.exceptions
import pytest

import dynarock
from conftest import create_table


def test_put_get_returns_boto3_shapes(dynarock_client):
    ddb = dynarock_client
    create_table(ddb)
    item = {"pk": {"S": "a"}, "n": {"N": "1.50"}, "b": {"B": b"\x00\xffbin"},
            "bs": {"BS": [b"x", b"\x01"]}, "l": {"L": [{"BOOL": True}, {"NULL": True}]},
            "m": {"M": {"s": {"SS": ["q", "r"]}}}}
    put = ddb.put_item(TableName="tbl", Item=item, ReturnConsumedCapacity="TOTAL")
    assert put["ConsumedCapacity"] == {"TableName": "tbl", "CapacityUnits": 1.0}
    meta = put["ResponseMetadata"]
    assert meta["HTTPStatusCode"] == 200 and meta["RetryAttempts"] == 0
    assert meta["RequestId"] == meta["HTTPHeaders"]["x-amzn-requestid"]
    got = ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}}, ConsistentRead=True)["Item"]
    # Binary values come back as bytes, sets as lists, numbers as strings,
    # exactly as boto3's low-level client.
    assert got["b"] == {"B": b"\x00\xffbin"}
    assert sorted(got["bs"]["BS"]) == [b"\x01", b"x"]
    assert got["n"] == {"N": "1.5"}
    assert got["l"] == {"L": [{"BOOL": True}, {"NULL": True}]}
    assert sorted(got["m"]["M"]["s"]["SS"]) == ["q", "r"]
    assert "Item" not in ddb.get_item(TableName="tbl", Key={"pk": {"S": "zz"}})


def test_describe_table_times_are_datetimes(dynarock_client):
    create_table(dynarock_client)
    table = dynarock_client.describe_table(TableName="tbl")["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert hasattr(table["CreationDateTime"], "tzinfo")
    assert table["TableArn"].startswith("arn:aws:dynamodb:us-east-1:")


def test_query_scan_and_paginators(dynarock_client):
    ddb = dynarock_client
    create_table(ddb, range_key=True)
    for i in range(25):
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "p"}, "sk": {"N": str(i)}})
    out = ddb.query(TableName="tbl", KeyConditionExpression="pk = :p AND sk >= :s",
                    ExpressionAttributeValues={":p": {"S": "p"}, ":s": {"N": "20"}})
    assert [i["sk"]["N"] for i in out["Items"]] == ["20", "21", "22", "23", "24"]
    assert out["Count"] == 5
    pages = list(ddb.get_paginator("query").paginate(
        TableName="tbl", KeyConditionExpression="pk = :p",
        ExpressionAttributeValues={":p": {"S": "p"}}, Limit=10))
    assert [p["Count"] for p in pages] == [10, 10, 5]
    full = ddb.get_paginator("scan").paginate(
        TableName="tbl", PaginationConfig={"PageSize": 7}).build_full_result()
    assert len(full["Items"]) == 25
    for n in range(3):
        create_table(ddb, name=f"extra{n}")
    names = ddb.get_paginator("list_tables").paginate(
        PaginationConfig={"PageSize": 2}).build_full_result()["TableNames"]
    assert names == ["extra0", "extra1", "extra2", "tbl"]
    assert ddb.can_paginate("query") and not ddb.can_paginate("put_item")


def test_update_delete_batch_and_transactions(dynarock_client):
    ddb = dynarock_client
    create_table(ddb)
    ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    upd = ddb.update_item(TableName="tbl", Key={"pk": {"S": "a"}},
                          UpdateExpression="SET v = v + :one",
                          ExpressionAttributeValues={":one": {"N": "1"}},
                          ReturnValues="UPDATED_NEW")
    assert upd["Attributes"] == {"v": {"N": "2"}}
    ddb.batch_write_item(RequestItems={"tbl": [
        {"PutRequest": {"Item": {"pk": {"S": f"b{i}"}}}} for i in range(5)]})
    got = ddb.batch_get_item(RequestItems={"tbl": {"Keys": [
        {"pk": {"S": f"b{i}"}} for i in range(5)]}})
    assert len(got["Responses"]["tbl"]) == 5 and got["UnprocessedKeys"] == {}
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": "tbl", "Item": {"pk": {"S": "t1"}}}},
        {"Update": {"TableName": "tbl", "Key": {"pk": {"S": "a"}},
                    "UpdateExpression": "SET v = :v",
                    "ExpressionAttributeValues": {":v": {"N": "9"}}}}])
    tg = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": "tbl", "Key": {"pk": {"S": "a"}}}}])
    assert tg["Responses"][0]["Item"]["v"] == {"N": "9"}
    with pytest.raises(ddb.exceptions.TransactionCanceledException) as e:
        ddb.transact_write_items(TransactItems=[
            {"ConditionCheck": {"TableName": "tbl", "Key": {"pk": {"S": "a"}},
                                "ConditionExpression": "v = :x",
                                "ExpressionAttributeValues": {":x": {"N": "0"}}}}])
    reasons = e.value.response["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["ConditionalCheckFailed"]
    ddb.delete_item(TableName="tbl", Key={"pk": {"S": "a"}})
    assert "Item" not in ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})


def test_partiql(dynarock_client):
    ddb = dynarock_client
    create_table(ddb)
    ddb.execute_statement(Statement="INSERT INTO tbl VALUE {'pk': ?, 'x': ?}",
                          Parameters=[{"S": "k"}, {"B": b"\x07"}])
    out = ddb.execute_statement(Statement="SELECT * FROM tbl WHERE pk = 'k'")
    assert out["Items"] == [{"pk": {"S": "k"}, "x": {"B": b"\x07"}}]


def test_errors_are_botocore_client_errors(dynarock_client):
    ddb = dynarock_client
    with pytest.raises(dynarock.ClientError) as e:
        ddb.get_item(TableName="missing", Key={"pk": {"S": "a"}})
    err = e.value
    # The same classes existing boto3 code catches.
    assert isinstance(err, botocore.exceptions.ClientError)
    assert isinstance(err, ddb.exceptions.ResourceNotFoundException)
    assert err.operation_name == "GetItem"
    assert err.response["Error"] == {"Code": "ResourceNotFoundException",
                                     "Message": "Requested resource not found"}
    assert err.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert str(err) == ("An error occurred (ResourceNotFoundException) when calling the "
                        "GetItem operation: Requested resource not found")
    create_table(ddb)
    with pytest.raises(ddb.exceptions.ConditionalCheckFailedException):
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}},
                     ConditionExpression="attribute_exists(pk)")
    # The engine's validation, with DynamoDB's message.
    with pytest.raises(dynarock.ClientError) as e:
        ddb.put_item(TableName="tbl", Item={"nopk": {"S": "a"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    assert "Missing the key pk" in e.value.response["Error"]["Message"]
    with pytest.raises(ddb.exceptions.ResourceInUseException):
        create_table(ddb)


@pytest.mark.parametrize("kwargs, fragment", [
    ({"TableName": "tbl", "Item": "not a dict"}, "Invalid type for parameter Item"),
    ({"TableName": "tbl"}, 'Missing required parameter in input: "Item"'),
    ({"TableName": "tbl", "Item": {}, "Bogus": 1}, 'Unknown parameter in input: "Bogus"'),
    ({"TableName": 5, "Item": {}}, "Invalid type for parameter TableName"),
    ({"TableName": "tbl", "Item": {"pk": {"N": 5}}}, "Invalid type for parameter Item.pk.N"),
])
def test_bad_kwargs_raise_param_validation_error(dynarock_client, kwargs, fragment):
    with pytest.raises(botocore.exceptions.ParamValidationError) as e:
        dynarock_client.put_item(**kwargs)
    assert fragment in str(e.value)
    assert isinstance(e.value, dynarock.ParamValidationError)


def test_positional_arguments_are_refused(dynarock_client):
    with pytest.raises(TypeError, match="only accepts keyword arguments"):
        dynarock_client.list_tables({})


def test_without_validation_the_engine_validates(dynarock_engine):
    # validate=False skips botocore's checks: the engine's own request
    # decoding answers, with DynamoDB's wire errors, as a server would.
    ddb = dynarock_engine.client(validate=False)
    with pytest.raises(dynarock.ClientError) as e:
        ddb.put_item(TableName="tbl", Item="not a dict")
    assert e.value.response["Error"] == {"Code": "SerializationException",
                                         "Message": "Unexpected field type"}
    with pytest.raises(dynarock.ClientError) as e:
        ddb.put_item(TableName="tbl", Item={"pk": {"N": 5}})
    assert e.value.response["Error"]["Message"] == "NUMBER_VALUE cannot be converted to String"


def test_operation_outside_the_model(dynarock_client):
    # A name the installed botocore model lacks goes out as JSON under its
    # CamelCase name; the engine answers it or says it does not serve it.
    with pytest.raises(dynarock.ClientError) as e:
        dynarock_client.frobnicate_table(TableName="tbl")
    assert e.value.response["Error"]["Code"] == "UnknownOperationException"
    assert e.value.operation_name == "FrobnicateTable"
    with pytest.raises(AttributeError):
        dynarock_client._private_thing  # noqa: B018


def test_waiters(dynarock_client):
    ddb = dynarock_client
    assert set(ddb.waiter_names) == {"table_exists", "table_not_exists"}
    create_table(ddb)
    ddb.delete_table(TableName="tbl")
    ddb.get_waiter("table_not_exists").wait(
        TableName="tbl", WaiterConfig={"Delay": 0.01, "MaxAttempts": 500})
    with pytest.raises(botocore.exceptions.WaiterError):
        ddb.get_waiter("table_exists").wait(
            TableName="tbl", WaiterConfig={"Delay": 0.01, "MaxAttempts": 2})


def test_boto3_resource_bridge(dynarock_engine):
    table_name = create_table(dynarock_engine.client())
    table = dynarock_engine.resource().Table(table_name)
    table.put_item(Item={"pk": "r", "n": 3})
    assert table.get_item(Key={"pk": "r"})["Item"] == {"pk": "r", "n": 3}
    low = dynarock_engine.boto3_client()
    assert low.get_item(TableName="tbl", Key={"pk": {"S": "r"}})["Item"]["n"] == {"N": "3"}


def test_botocore_events_see_and_change_the_wire(dynarock_client):
    # Code that hooks botocore's before-call / after-call (to send members
    # the installed model lacks, or read raw bodies) works unchanged.
    import json

    ddb = dynarock_client
    create_table(ddb)
    seen = []

    def add_member(params, **_):
        body = json.loads(params["body"])
        body["ReturnValues"] = "ALL_OLD"
        params["body"] = json.dumps(body).encode()

    def keep(http_response, parsed, **_):
        seen.append((http_response.status_code, json.loads(http_response.content), parsed))

    ddb.meta.events.register("before-call.dynamodb.PutItem", add_member)
    ddb.meta.events.register("after-call.dynamodb.PutItem", keep)
    ddb.put_item(TableName="tbl", Item={"pk": {"S": "e"}, "v": {"N": "1"}})
    out = ddb.put_item(TableName="tbl", Item={"pk": {"S": "e"}})
    assert out["Attributes"] == {"pk": {"S": "e"}, "v": {"N": "1"}}
    assert seen[1][0] == 200
    assert seen[1][1] == {"Attributes": {"pk": {"S": "e"}, "v": {"N": "1"}}}
    with pytest.raises(dynarock.ClientError):
        ddb.put_item(TableName="missing", Item={"pk": {"S": "e"}})
    assert seen[2][0] == 400 and seen[2][2]["Error"]["Code"] == "ResourceNotFoundException"
