"""Tagging end to end with boto3: TagResource / UntagResource /
ListTagsOfResource (with the paginator), Tags in CreateTable, DynamoDB's
errors, tags kept over a restart and gone with the table. The AWS CLI's
tag-resource / list-tags-of-resource are in test_aws_cli.py."""

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name


def error_of(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def all_tags(ddb, arn):
    pages = ddb.get_paginator("list_tags_of_resource").paginate(ResourceArn=arn)
    return {t["Key"]: t["Value"] for page in pages for t in page["Tags"]}


def test_tag_untag_list(ddb, table):
    arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "dev"},
                                            {"Key": "team", "Value": "data"}])
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "prod"}])
    assert all_tags(ddb, arn) == {"env": "prod", "team": "data"}
    ddb.untag_resource(ResourceArn=arn, TagKeys=["team", "absent"])
    assert all_tags(ddb, arn) == {"env": "prod"}


def test_tag_and_untag_answer_with_no_body(server, ddb, table):
    # DynamoDB sends TagResource and UntagResource back with an empty body
    # (Alternator's test_tags_return_empty_body, run against DynamoDB).
    arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
    seen = []
    ddb.meta.events.register("after-call.dynamodb.*",
                             lambda http_response, **_: seen.append(http_response.content))
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "k", "Value": "v"}])
    ddb.untag_resource(ResourceArn=arn, TagKeys=["k"])
    assert seen == [b"", b""]


def test_errors(ddb, table):
    arn = ddb.describe_table(TableName=table)["Table"]["TableArn"]
    bad = "arn:aws:dynamodb:us-east-1:000000000000:table/ab"
    assert error_of(ddb.tag_resource, ResourceArn=bad, Tags=[{"Key": "a", "Value": "b"}]) == (
        "ValidationException", f"Invalid TableArn: Invalid ResourceArn provided as input {bad}")
    table_name = arn.rsplit("/", 1)[1]
    assert error_of(ddb.list_tags_of_resource, ResourceArn=table_name) == (
        "ValidationException",
        f"One or more parameter values were invalid: ARNs must start with 'arn:': {table_name}")
    assert error_of(ddb.tag_resource, ResourceArn=arn, Tags=[]) == (
        "ValidationException", "Atleast one Tag needs to be provided as Input.")
    missing = arn + "x"
    assert error_of(ddb.list_tags_of_resource, ResourceArn=missing) == (
        "ResourceNotFoundException", f"Requested resource not found: ResourceArn: {missing} not found")
    code, _ = error_of(ddb.tag_resource, ResourceArn=arn,
                       Tags=[{"Key": f"k{i}", "Value": "v"} for i in range(51)])
    assert code == "ValidationException"
    code, _ = error_of(ddb.tag_resource, ResourceArn=arn,
                       Tags=[{"Key": "aws:reserved", "Value": "v"}])
    assert code == "ValidationException"
    for key, value in (("ok", "#!%%^$$&"), ("->>;-)])", "ok"), ("!!!\\|", "<><")):
        code, _ = error_of(ddb.tag_resource, ResourceArn=arn, Tags=[{"Key": key, "Value": value}])
        assert code == "ValidationException", (key, value)
    assert all_tags(ddb, arn) == {}


def test_create_table_with_tags_and_restart(start_server, tmp_path):
    db = tmp_path / "db"
    server = start_server("--db-path", str(db))
    ddb = server.client()
    name = unique_name("tags")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     Tags=[{"Key": "created", "Value": "yes"}])
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "env", "Value": "prod"}])
    server.stop()
    assert server.returncode == 0

    server = start_server("--db-path", str(db))
    ddb = server.client()
    assert all_tags(ddb, arn) == {"created": "yes", "env": "prod"}
    ddb.delete_table(TableName=name)
    ddb.get_waiter("table_not_exists").wait(TableName=name,
                                            WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    create_simple_table(ddb, name)
    assert all_tags(ddb, arn) == {}
