"""Table settings end to end with boto3: TableClass (TableClassSummary),
OnDemandThroughput (reported, merged, -1 removes a maximum, enforced with
DynamoDB's ThrottlingReasons), WarmThroughput (reported, never decreased),
DeletionProtectionEnabled (DeleteTable refused, then allowed), for tables
and GSIs, and all of them kept over a restart.

The boto3 installed here (1.26) predates OnDemandThroughput, WarmThroughput
and DeletionProtectionEnabled: its serializer drops members it does not
know and its parser drops them from responses. `call` sends them anyway
(added to the serialized JSON body) and returns the raw response body, so
these tests see exactly what a current SDK would."""

import json
import time

import pytest
from botocore.exceptions import ClientError

from conftest import ACCOUNT, unique_name

WAIT = {"Delay": 0.05, "MaxAttempts": 200}


def call(ddb, operation, **params):
    """Calls `operation` (e.g. "UpdateTable") with every member in `params`,
    known to this boto3 or not, and returns the response body as DynamoDB
    sent it (JSON, timestamps as numbers). Errors raise ClientError, with the
    error's raw body as its `raw`."""
    model = ddb.meta.service_model.operation_model(operation)
    # The SDK validates only what it must have; the rest goes in as is.
    known = {k: v for k, v in params.items() if k in model.input_shape.required_members}
    extra = {k: v for k, v in params.items() if k not in known}
    raw = {}

    def add_members(params, **_):
        body = json.loads(params["body"] or b"{}")
        body.update(extra)
        params["body"] = json.dumps(body).encode()

    def keep_raw(http_response, **_):
        raw["body"] = json.loads(http_response.content or b"{}")

    events = ddb.meta.events
    events.register(f"before-call.dynamodb.{operation}", add_members)
    events.register(f"after-call.dynamodb.{operation}", keep_raw)
    try:
        method = getattr(ddb, "".join("_" + c.lower() if c.isupper() else c
                                      for c in operation).lstrip("_"))
        method(**known)
    except ClientError as e:
        e.raw = raw.get("body")
        raise
    finally:
        events.unregister(f"before-call.dynamodb.{operation}", add_members)
        events.unregister(f"after-call.dynamodb.{operation}", keep_raw)
    return raw["body"]


def error_of(ddb, operation, **params):
    with pytest.raises(ClientError) as e:
        call(ddb, operation, **params)
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def describe(ddb, name):
    return call(ddb, "DescribeTable", TableName=name)["Table"]


def wait_active(ddb, name):
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)
    for _ in range(200):
        if describe(ddb, name)["TableStatus"] == "ACTIVE":
            return
    raise AssertionError(f"{name} never became ACTIVE")


KEY = {"AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
       "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]}


def with_gsi(**settings):
    """KEY and a GSI "ByG" on g with `settings`."""
    return {"AttributeDefinitions": KEY["AttributeDefinitions"] + [
                {"AttributeName": "g", "AttributeType": "S"}],
            "KeySchema": KEY["KeySchema"],
            "GlobalSecondaryIndexes": [{
                "IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"}, **settings}]}


def test_table_class(ddb):
    name = unique_name("class")
    created = call(ddb, "CreateTable", TableName=name, BillingMode="PAY_PER_REQUEST",
                   TableClass="STANDARD_INFREQUENT_ACCESS", **with_gsi())
    assert created["TableDescription"]["TableClassSummary"] == {
        "TableClass": "STANDARD_INFREQUENT_ACCESS"}
    wait_active(ddb, name)
    # The SDK's own model knows TableClass: it parses the summary too.
    ddb.update_table(TableName=name, TableClass="STANDARD")
    summary = ddb.describe_table(TableName=name)["Table"]["TableClassSummary"]
    assert summary["TableClass"] == "STANDARD"
    assert "LastUpdateDateTime" in summary
    assert error_of(ddb, "UpdateTable", TableName=name, TableClass="COLD") == (
        "ValidationException",
        "1 validation error detected: Value 'COLD' at 'tableClass' failed to satisfy "
        "constraint: Member must satisfy enum value set: [STANDARD, "
        "STANDARD_INFREQUENT_ACCESS]")
    # A table created without a class has no summary.
    other = unique_name("class")
    call(ddb, "CreateTable", TableName=other, BillingMode="PAY_PER_REQUEST", **KEY)
    assert "TableClassSummary" not in describe(ddb, other)


def test_on_demand_throughput_reported_and_validated(ddb):
    name = unique_name("odt")
    created = call(ddb, "CreateTable", TableName=name, BillingMode="PAY_PER_REQUEST",
                   OnDemandThroughput={"MaxReadRequestUnits": 100,
                                       "MaxWriteRequestUnits": 50},
                   **with_gsi(OnDemandThroughput={"MaxWriteRequestUnits": 20}))
    table = created["TableDescription"]
    assert table["OnDemandThroughput"] == {"MaxReadRequestUnits": 100,
                                           "MaxWriteRequestUnits": 50}
    assert table["GlobalSecondaryIndexes"][0]["OnDemandThroughput"] == {
        "MaxWriteRequestUnits": 20}
    wait_active(ddb, name)
    # Members merge; -1 removes one maximum.
    call(ddb, "UpdateTable", TableName=name,
         OnDemandThroughput={"MaxReadRequestUnits": -1})
    assert describe(ddb, name)["OnDemandThroughput"] == {"MaxWriteRequestUnits": 50}
    assert error_of(ddb, "UpdateTable", TableName=name,
                    OnDemandThroughput={"MaxWriteRequestUnits": 0}) == (
        "ValidationException",
        "One or more parameter values were invalid: Requested MaxWriteRequestUnits for "
        "OnDemandThroughput for table is outside of valid range")
    provisioned = unique_name("odt")
    assert error_of(ddb, "CreateTable", TableName=provisioned,
                    ProvisionedThroughput={"ReadCapacityUnits": 1, "WriteCapacityUnits": 1},
                    OnDemandThroughput={"MaxReadRequestUnits": 10}, **KEY) == (
        "ValidationException",
        "One or more parameter values were invalid: MaxReadRequestUnits for "
        "OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED")


def test_on_demand_maximum_is_enforced(ddb):
    name = unique_name("odtmax")
    call(ddb, "CreateTable", TableName=name, BillingMode="PAY_PER_REQUEST",
         OnDemandThroughput={"MaxWriteRequestUnits": 2}, **KEY)
    wait_active(ddb, name)
    # 2 write units a second: a burst of small writes is throttled with the
    # table's MaxOnDemandThroughputExceeded reason (clients here retry once).
    throttled = None
    for i in range(40):
        try:
            call(ddb, "PutItem", TableName=name, Item={"pk": {"S": f"k{i}"}})
        except ClientError as e:
            throttled = e
            break
    assert throttled is not None, "40 writes passed a maximum of 2 units a second"
    assert throttled.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    arn = describe(ddb, name)["TableArn"]
    assert throttled.raw["ThrottlingReasons"] == [
        {"reason": "TableWriteMaxOnDemandThroughputExceeded", "resource": arn}]


def test_warm_throughput(ddb):
    name = unique_name("warm")
    created = call(ddb, "CreateTable", TableName=name, BillingMode="PAY_PER_REQUEST",
                   **with_gsi())
    # CreateTable shows WarmThroughput only when it was sent.
    assert "WarmThroughput" not in created["TableDescription"]
    wait_active(ddb, name)
    table = describe(ddb, name)
    assert table["WarmThroughput"] == {"ReadUnitsPerSecond": 12000,
                                       "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"}
    assert table["GlobalSecondaryIndexes"][0]["WarmThroughput"] == {
        "ReadUnitsPerSecond": 12000, "WriteUnitsPerSecond": 4000, "Status": "ACTIVE"}
    call(ddb, "UpdateTable", TableName=name,
         WarmThroughput={"ReadUnitsPerSecond": 15000, "WriteUnitsPerSecond": 6000})
    call(ddb, "UpdateTable", TableName=name, GlobalSecondaryIndexUpdates=[
        {"Update": {"IndexName": "ByG", "WarmThroughput": {"WriteUnitsPerSecond": 5000}}}])
    table = describe(ddb, name)
    assert table["WarmThroughput"]["ReadUnitsPerSecond"] == 15000
    assert table["WarmThroughput"]["WriteUnitsPerSecond"] == 6000
    assert table["GlobalSecondaryIndexes"][0]["WarmThroughput"]["WriteUnitsPerSecond"] == 5000
    assert error_of(ddb, "UpdateTable", TableName=name,
                    WarmThroughput={"WriteUnitsPerSecond": 4000}) == (
        "ValidationException",
        "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
        "WarmThroughput for table is lower than current WarmThroughput, decreasing "
        "WarmThroughput is not supported")


def test_deletion_protection(ddb):
    name = unique_name("protected")
    call(ddb, "CreateTable", TableName=name, BillingMode="PAY_PER_REQUEST",
         DeletionProtectionEnabled=True, **KEY)
    wait_active(ddb, name)
    assert describe(ddb, name)["DeletionProtectionEnabled"] is True
    with pytest.raises(ClientError) as e:
        ddb.delete_table(TableName=name)
    assert e.value.response["Error"] == {
        "Code": "ValidationException",
        "Message": "Resource cannot be deleted as it is currently protected against "
                   "deletion. Disable deletion protection first."}
    call(ddb, "UpdateTable", TableName=name, DeletionProtectionEnabled=False)
    wait_active(ddb, name)
    assert describe(ddb, name)["DeletionProtectionEnabled"] is False
    ddb.delete_table(TableName=name)
    ddb.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig=WAIT)


def test_settings_survive_a_restart(start_server, tmp_path):
    db = tmp_path / "db"
    server = start_server("--db-path", str(db))
    ddb = server.client()
    name = unique_name("settings")
    call(ddb, "CreateTable", TableName=name, BillingMode="PAY_PER_REQUEST",
         TableClass="STANDARD_INFREQUENT_ACCESS", DeletionProtectionEnabled=True,
         OnDemandThroughput={"MaxReadRequestUnits": 300},
         WarmThroughput={"WriteUnitsPerSecond": 4500},
         **with_gsi(OnDemandThroughput={"MaxReadRequestUnits": 30},
                    WarmThroughput={"ReadUnitsPerSecond": 13000}))
    wait_active(ddb, name)
    before = describe(ddb, name)
    server.stop()
    assert server.returncode == 0

    server = start_server("--db-path", str(db))
    after = describe(server.client(), name)
    for member in ("TableClassSummary", "OnDemandThroughput", "WarmThroughput",
                   "DeletionProtectionEnabled", "GlobalSecondaryIndexes"):
        assert after[member] == before[member], member
    assert after["TableClassSummary"] == {"TableClass": "STANDARD_INFREQUENT_ACCESS"}
    assert after["OnDemandThroughput"] == {"MaxReadRequestUnits": 300}
    assert after["WarmThroughput"]["WriteUnitsPerSecond"] == 4500
    index = after["GlobalSecondaryIndexes"][0]
    assert index["OnDemandThroughput"] == {"MaxReadRequestUnits": 30}
    assert index["WarmThroughput"]["ReadUnitsPerSecond"] == 13000


def wait_backup(ddb, arn):
    for _ in range(400):
        d = ddb.describe_backup(BackupArn=arn)["BackupDescription"]
        if d["BackupDetails"]["BackupStatus"] == "AVAILABLE":
            return
        time.sleep(0.05)
    raise AssertionError(f"{arn} never became AVAILABLE")


def test_server_side_encryption_with_a_kms_key(ddb):
    # The AWS managed key (Enabled, no key id): SSEDescription KMS, ENABLED.
    name = unique_name("sse")
    created = ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                               SSESpecification={"Enabled": True}, **KEY)
    sse = created["TableDescription"]["SSEDescription"]
    assert sse["Status"] == "ENABLED" and sse["SSEType"] == "KMS"
    assert sse["KMSMasterKeyArn"].startswith("arn:aws:kms:")
    assert f":{ACCOUNT}:key/" in sse["KMSMasterKeyArn"]
    wait_active(ddb, name)
    # A key of one's own, by alias; then back to the AWS owned key.
    ddb.update_table(TableName=name, SSESpecification={
        "Enabled": True, "SSEType": "KMS", "KMSMasterKeyId": "alias/mine"})
    assert ddb.describe_table(TableName=name)["Table"]["SSEDescription"][
        "KMSMasterKeyArn"].endswith(f":{ACCOUNT}:alias/mine")
    wait_active(ddb, name)
    # A backup's restore keeps the source's key unless overridden.
    arn = ddb.create_backup(TableName=name, BackupName="sse-backup")["BackupDetails"]["BackupArn"]
    wait_backup(ddb, arn)
    kept = unique_name("sse")
    ddb.restore_table_from_backup(TargetTableName=kept, BackupArn=arn)
    assert describe(ddb, kept)["SSEDescription"]["KMSMasterKeyArn"].endswith("alias/mine")
    owned = unique_name("sse")
    arn = ddb.create_backup(TableName=name, BackupName="sse-backup-2")["BackupDetails"][
        "BackupArn"]
    wait_backup(ddb, arn)
    ddb.restore_table_from_backup(TargetTableName=owned, BackupArn=arn,
                                  SSESpecificationOverride={"Enabled": False})
    assert "SSEDescription" not in describe(ddb, owned)
    ddb.update_table(TableName=name, SSESpecification={"Enabled": False})
    assert "SSEDescription" not in describe(ddb, name)
    # The default (no SSESpecification, or Enabled false): no SSEDescription.
    plain = unique_name("sse")
    created = ddb.create_table(TableName=plain, BillingMode="PAY_PER_REQUEST",
                               SSESpecification={"Enabled": False}, **KEY)
    assert "SSEDescription" not in created["TableDescription"]
    # DynamoDB's refusals.
    assert error_of(ddb, "CreateTable", TableName=unique_name("sse"),
                    BillingMode="PAY_PER_REQUEST",
                    SSESpecification={"Enabled": True, "SSEType": "AES256"}, **KEY) == (
        "ValidationException",
        "One or more parameter values were invalid: SSEType AES256 is not supported")
    assert error_of(ddb, "CreateTable", TableName=unique_name("sse"),
                    BillingMode="PAY_PER_REQUEST",
                    SSESpecification={"Enabled": True, "KMSMasterKeyId": "k"}, **KEY) == (
        "ValidationException",
        "One or more parameter values were invalid: SSEType KMS is required if "
        "KMSMasterKeyId is specified")


def test_a_kms_key_survives_a_restart(start_server, tmp_path):
    db = tmp_path / "db"
    server = start_server("--db-path", str(db))
    name = unique_name("sse")
    server.client().create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        SSESpecification={"Enabled": True, "SSEType": "KMS",
                          "KMSMasterKeyId": "1234abcd-12ab-34cd-56ef-1234567890ab"},
        **KEY)
    before = describe(server.client(), name)["SSEDescription"]
    server.stop()
    assert server.returncode == 0
    server = start_server("--db-path", str(db))
    assert describe(server.client(), name)["SSEDescription"] == before
    assert before["KMSMasterKeyArn"].endswith(
        f":{ACCOUNT}:key/1234abcd-12ab-34cd-56ef-1234567890ab")
