"""A table ARN wherever a TableName is accepted (issue 43), through boto3:
item, query and table operations, batch keys echoed as given, transactions,
PartiQL, and DynamoDB's answers for another account or region
(docs/compatibility.md "Table ARNs")."""

import subprocess

import pytest
from botocore.exceptions import ClientError

from conftest import ACCOUNT, INPROCESS, REGION, create_simple_table, dynarock_bin


@pytest.fixture
def table(ddb, table_name):
    create_simple_table(ddb, table_name)
    arn = ddb.describe_table(TableName=table_name)["Table"]["TableArn"]
    assert arn == f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{table_name}"
    return table_name, arn


def test_item_and_table_operations_accept_the_arn(ddb, table):
    name, arn = table
    assert ddb.describe_table(TableName=arn)["Table"]["TableName"] == name
    r = ddb.put_item(TableName=arn, Item={"pk": {"S": "a"}, "v": {"N": "1"}},
                     ReturnConsumedCapacity="TOTAL")
    assert r["ConsumedCapacity"]["TableName"] == arn
    assert ddb.get_item(TableName=arn, Key={"pk": {"S": "a"}})["Item"]["v"] == {"N": "1"}
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})["Item"]["v"] == {"N": "1"}
    ddb.update_item(TableName=arn, Key={"pk": {"S": "a"}}, UpdateExpression="SET v = :v",
                    ExpressionAttributeValues={":v": {"N": "2"}})
    q = ddb.query(TableName=arn, KeyConditionExpression="pk = :p",
                  ExpressionAttributeValues={":p": {"S": "a"}})
    assert q["Items"][0]["v"] == {"N": "2"}
    assert ddb.scan(TableName=arn)["Count"] == 1
    ddb.update_time_to_live(TableName=arn, TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "ttl"})
    ttl = ddb.describe_time_to_live(TableName=arn)["TimeToLiveDescription"]
    assert ttl["AttributeName"] == "ttl"
    ddb.delete_item(TableName=arn, Key={"pk": {"S": "a"}})
    assert ddb.delete_table(TableName=arn)["TableDescription"]["TableName"] == name


def test_batches_answer_with_the_keys_as_given(ddb, table):
    name, arn = table
    w = ddb.batch_write_item(
        RequestItems={arn: [{"PutRequest": {"Item": {"pk": {"S": "b"}}}}]},
        ReturnConsumedCapacity="TOTAL")
    assert w["UnprocessedItems"] == {}
    assert w["ConsumedCapacity"][0]["TableName"] == arn
    g = ddb.batch_get_item(RequestItems={arn: {"Keys": [{"pk": {"S": "b"}}]}})
    assert list(g["Responses"]) == [arn]
    assert g["Responses"][arn] == [{"pk": {"S": "b"}}]


def test_transactions_and_partiql_accept_the_arn(ddb, table):
    name, arn = table
    ddb.transact_write_items(TransactItems=[
        {"Put": {"TableName": arn, "Item": {"pk": {"S": "t"}}}},
        {"ConditionCheck": {"TableName": name, "Key": {"pk": {"S": "u"}},
                            "ConditionExpression": "attribute_not_exists(pk)"}}])
    g = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": arn, "Key": {"pk": {"S": "t"}}}}])
    assert g["Responses"][0]["Item"] == {"pk": {"S": "t"}}
    s = ddb.execute_statement(Statement=f'SELECT * FROM "{arn}" WHERE pk = \'t\'')
    assert s["Items"] == [{"pk": {"S": "t"}}]
    ddb.execute_statement(Statement=f"INSERT INTO \"{arn}\" VALUE {{'pk': 'p'}}")
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "p"}})["Item"]


def test_another_account_or_region(ddb, table):
    name, arn = table
    with pytest.raises(ClientError) as e:
        ddb.get_item(TableName=f"arn:aws:dynamodb:{REGION}:111122223333:table/{name}",
                     Key={"pk": {"S": "a"}})
    assert e.value.response["Error"]["Code"] == "AccessDeniedException"
    assert "dynamodb:GetItem" in e.value.response["Error"]["Message"]
    with pytest.raises(ClientError) as e:
        ddb.get_item(TableName=arn.replace(REGION, "eu-west-1"),
                     Key={"pk": {"S": "a"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={
            f"arn:aws:dynamodb:{REGION}:111122223333:table/{name}": {"Keys": [{"pk": {"S": "a"}}]}})
    assert e.value.response["Error"]["Code"] == "AccessDeniedException"


def test_unimplemented_parameters_are_refused_by_name(ddb, table, table_name):
    name, _ = table
    # A replica's provisioned read override needs a PROVISIONED table: this
    # one is on demand (the overrides: tests/e2e/test_global_table_settings.py).
    with pytest.raises(ClientError) as e:
        ddb.update_table(TableName=name, ReplicaUpdates=[{"Create": {
            "RegionName": "us-west-2",
            "ProvisionedThroughputOverride": {"ReadCapacityUnits": 5}}}])
    assert e.value.response["Error"]["Code"] == "ValidationException"
    assert "ProvisionedThroughputOverride" in e.value.response["Error"]["Message"]
    # The AWS owned key (Enabled false) is every table's: accepted, no SSEDescription.
    other = table_name + "-sse"
    ddb.create_table(TableName=other, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     SSESpecification={"Enabled": False})
    assert "SSEDescription" not in ddb.describe_table(TableName=other)["Table"]
    # A KMS key (Enabled true) is implemented: reported as SSEDescription
    # (tests/e2e/test_table_settings.py has the rest).
    created = ddb.create_table(TableName=other + "2", BillingMode="PAY_PER_REQUEST",
                               AttributeDefinitions=[{"AttributeName": "pk",
                                                      "AttributeType": "S"}],
                               KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                               SSESpecification={"Enabled": True})
    assert created["TableDescription"]["SSEDescription"]["SSEType"] == "KMS"


def test_account_000000000000_is_another_account(ddb, table):
    # DynamoDB Local's account id is no AWS account's: the conformance suite
    # (written against DynamoDB) expects AccessDeniedException for it.
    name, _ = table
    zeros = f"arn:aws:dynamodb:{REGION}:000000000000:table/{name}"
    with pytest.raises(ClientError) as e:
        ddb.list_tags_of_resource(ResourceArn=zeros)
    err = e.value.response["Error"]
    assert err["Code"] == "AccessDeniedException"
    assert err["Message"] == (
        f"User: arn:aws:iam::{ACCOUNT}:root is not authorized to perform: "
        f"dynamodb:ListTagsOfResource on resource: {zeros} because no resource-based "
        "policy allows the dynamodb:ListTagsOfResource action")


def test_account_id_flag_names_the_account(start_server, table_name):
    server = start_server("--in-memory", "--account-id", "000000000000")
    ddb = server.client()
    create_simple_table(ddb, table_name)
    arn = ddb.describe_table(TableName=table_name)["Table"]["TableArn"]
    assert arn == f"arn:aws:dynamodb:{REGION}:000000000000:table/{table_name}"
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}])
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == [{"Key": "k", "Value": "v"}]
    with pytest.raises(ClientError) as e:
        ddb.list_tags_of_resource(ResourceArn=arn.replace("000000000000", ACCOUNT))
    assert e.value.response["Error"]["Code"] == "AccessDeniedException"


@pytest.mark.skipif(INPROCESS, reason="a command-line flag of dynarock serve")
@pytest.mark.parametrize("bad", ["12345678901", "1234567890123", "12345678901x", ""])
def test_account_id_flag_refuses_what_is_no_account_id(bad):
    done = subprocess.run([str(dynarock_bin()), "serve", "--in-memory", "--port", "0",
                           "--account-id", bad], capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert "--account-id" in done.stderr and "12 digits" in done.stderr, done.stderr
