"""On-demand backups and point-in-time recovery end to end with boto3:
create / describe / list (filters, paging) / delete backups, restore to a new
table with its GSI and items, DynamoDB's errors, backups kept over a restart
and in-memory mode; PITR on and off, the restore window and a restore to a
time before a change. The AWS CLI's create-backup and
describe-continuous-backups are in test_aws_cli.py."""

import datetime
import http.client
import json
import time
from urllib.parse import urlparse

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, unique_name

WAIT = {"Delay": 0.05, "MaxAttempts": 200}


def error_of(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def wait_available(ddb, arn):
    for _ in range(200):
        d = ddb.describe_backup(BackupArn=arn)["BackupDescription"]
        if d["BackupDetails"]["BackupStatus"] == "AVAILABLE":
            return d
        time.sleep(0.02)
    raise AssertionError("backup still CREATING")


def create_gsi_table(ddb, name):
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)


def all_items(ddb, name, index=None):
    kwargs = {"TableName": name}
    if index:
        kwargs["IndexName"] = index
    items, start = [], None
    while True:
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = ddb.scan(**kwargs)
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return sorted(items, key=lambda i: i["pk"]["S"])


def test_backup_and_restore(ddb):
    source = unique_name("bk")
    create_gsi_table(ddb, source)
    for i in range(30):
        ddb.put_item(TableName=source,
                     Item={"pk": {"S": f"k{i:02d}"}, "g": {"S": f"g{i % 3}"}, "n": {"N": str(i)}})
    details = ddb.create_backup(TableName=source, BackupName="first")["BackupDetails"]
    arn = details["BackupArn"]
    assert arn.startswith(ddb.describe_table(TableName=source)["Table"]["TableArn"] + "/backup/")
    stamp = arn.rsplit("/", 1)[1]
    assert len(stamp) == 22 and stamp[13] == "-" and stamp[:13].isdigit()
    assert details["BackupName"] == "first" and details["BackupType"] == "USER"
    assert details["BackupStatus"] in ("CREATING", "AVAILABLE")
    # Writes after the backup are not in it.
    ddb.put_item(TableName=source, Item={"pk": {"S": "late"}, "g": {"S": "g0"}})
    d = wait_available(ddb, arn)
    assert d["SourceTableDetails"]["TableName"] == source
    assert d["SourceTableDetails"]["ItemCount"] == 30
    assert d["BackupDetails"]["BackupSizeBytes"] == d["SourceTableDetails"]["TableSizeBytes"] > 0
    assert d["SourceTableFeatureDetails"]["GlobalSecondaryIndexes"][0]["IndexName"] == "byG"

    target = unique_name("restored")
    out = ddb.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
    assert out["TableDescription"]["TableName"] == target
    assert out["TableDescription"]["RestoreSummary"]["SourceBackupArn"] == arn
    ddb.get_waiter("table_exists").wait(TableName=target, WaiterConfig=WAIT)
    restored = ddb.describe_table(TableName=target)["Table"]
    assert restored["ItemCount"] == 30
    assert [g["IndexName"] for g in restored["GlobalSecondaryIndexes"]] == ["byG"]
    expected = [i for i in all_items(ddb, source) if i["pk"]["S"] != "late"]
    assert all_items(ddb, target) == expected
    assert all_items(ddb, target, "byG") == expected
    assert error_of(ddb.restore_table_from_backup, TargetTableName=target, BackupArn=arn) == (
        "TableAlreadyExistsException", f"Table already exists: {target}")


def test_restore_with_overrides(ddb):
    source = unique_name("ov")
    create_gsi_table(ddb, source)
    ddb.put_item(TableName=source, Item={"pk": {"S": "a"}, "g": {"S": "x"}})
    arn = ddb.create_backup(TableName=source, BackupName="ovr")["BackupDetails"]["BackupArn"]
    wait_available(ddb, arn)
    target = unique_name("ov-target")
    ddb.restore_table_from_backup(
        TargetTableName=target, BackupArn=arn, BillingModeOverride="PROVISIONED",
        ProvisionedThroughputOverride={"ReadCapacityUnits": 7, "WriteCapacityUnits": 3},
        SSESpecificationOverride={"Enabled": False})
    d = ddb.describe_table(TableName=target)["Table"]
    assert d["ProvisionedThroughput"]["ReadCapacityUnits"] == 7
    assert d["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["ReadCapacityUnits"] == 7


def test_list_filters_and_paging(ddb):
    a, b = unique_name("la"), unique_name("lb")
    create_simple_table(ddb, a)
    create_simple_table(ddb, b)
    arns = [ddb.create_backup(TableName=t, BackupName=f"bk{i}")["BackupDetails"]["BackupArn"]
            for i, t in enumerate([a, a, b])]
    mine = ddb.list_backups(TableName=a)["BackupSummaries"]
    assert [s["BackupArn"] for s in mine] == arns[:2]
    assert mine[0]["TableName"] == a and mine[0]["BackupType"] == "USER"
    page = ddb.list_backups(TableName=a, Limit=1)
    assert [s["BackupArn"] for s in page["BackupSummaries"]] == arns[:1]
    page2 = ddb.list_backups(TableName=a, Limit=1,
                             ExclusiveStartBackupArn=page["LastEvaluatedBackupArn"])
    assert [s["BackupArn"] for s in page2["BackupSummaries"]] == arns[1:2]
    assert "LastEvaluatedBackupArn" not in page2
    assert ddb.list_backups(TableName=a, BackupType="SYSTEM")["BackupSummaries"] == []
    # botocore sends whole seconds: bounds an hour away.
    created = mine[1]["BackupCreationDateTime"]
    hour = datetime.timedelta(hours=1)
    assert ddb.list_backups(TableName=a, TimeRangeLowerBound=created + hour)[
        "BackupSummaries"] == []
    assert len(ddb.list_backups(TableName=a, TimeRangeLowerBound=created - hour,
                                TimeRangeUpperBound=created + hour)["BackupSummaries"]) == 2
    assert ddb.list_backups(TableName=a, TimeRangeUpperBound=created - hour)[
        "BackupSummaries"] == []


def test_errors_and_delete(ddb, table):
    assert error_of(ddb.create_backup, TableName="nope-" + table, BackupName="xx1") == (
        "TableNotFoundException", f"Table not found: nope-{table}")
    missing = "arn:aws:dynamodb:us-east-1:000000000000:table/t/backup/0000000000000-00000000"
    assert error_of(ddb.describe_backup, BackupArn=missing) == (
        "BackupNotFoundException", f"Backup not found: {missing}")
    assert error_of(ddb.restore_table_from_backup, TargetTableName="t" + table,
                    BackupArn=missing)[0] == "BackupNotFoundException"
    arn = ddb.create_backup(TableName=table, BackupName="gone")["BackupDetails"]["BackupArn"]
    wait_available(ddb, arn)
    deleted = ddb.delete_backup(BackupArn=arn)["BackupDescription"]
    assert deleted["BackupDetails"]["BackupStatus"] == "DELETED"
    assert error_of(ddb.delete_backup, BackupArn=arn)[0] == "BackupNotFoundException"
    assert error_of(ddb.create_backup, TableName=table, BackupName="a b c")[0] == (
        "ValidationException")


def test_backups_survive_restart_and_table_deletion(start_server, tmp_path):
    db = tmp_path / "db"
    server = start_server("--db-path", str(db))
    ddb = server.client()
    name = unique_name("rs")
    create_simple_table(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "kept"}})
    arn = ddb.create_backup(TableName=name, BackupName="keep")["BackupDetails"]["BackupArn"]
    wait_available(ddb, arn)
    ddb.delete_table(TableName=name)
    server.stop()
    assert server.returncode == 0

    server = start_server("--db-path", str(db))
    ddb = server.client()
    assert [s["BackupArn"] for s in ddb.list_backups()["BackupSummaries"]] == [arn]
    ddb.get_waiter("table_not_exists").wait(TableName=name, WaiterConfig=WAIT)
    ddb.restore_table_from_backup(TargetTableName=name, BackupArn=arn)
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)
    assert ddb.get_item(TableName=name, Key={"pk": {"S": "kept"}})["Item"] == {
        "pk": {"S": "kept"}}


def test_in_memory_backups(start_server):
    ddb = start_server("--in-memory").client()
    name = unique_name("mem")
    create_simple_table(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "m"}})
    arn = ddb.create_backup(TableName=name, BackupName="mem")["BackupDetails"]["BackupArn"]
    wait_available(ddb, arn)
    target = unique_name("mem-r")
    ddb.restore_table_from_backup(TargetTableName=target, BackupArn=arn)
    ddb.get_waiter("table_exists").wait(TableName=target, WaiterConfig=WAIT)
    assert ddb.scan(TableName=target)["Count"] == 1


def call_raw(url, operation, body, target=None, payload=None):
    """A DynamoDB operation (or `target`) over plain HTTP, with the body as
    given."""
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", "/", body=json.dumps(payload if payload is not None else body), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": target or "DynamoDB_20120810." + operation,
        "Authorization": "AWS4-HMAC-SHA256 Credential=AKIDE2E/20251121/us-east-1/"
                         "dynamodb/aws4_request, SignedHeaders=host, Signature=0"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data


def test_point_in_time_recovery(ddb, table, endpoint):
    out = ddb.describe_continuous_backups(TableName=table)["ContinuousBackupsDescription"]
    assert out == {"ContinuousBackupsStatus": "ENABLED",
                   "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}
    assert error_of(ddb.restore_table_to_point_in_time, SourceTableName=table,
                    TargetTableName=table + "-r", UseLatestRestorableTime=True)[0] == (
        "PointInTimeRecoveryUnavailableException")
    ddb.put_item(TableName=table, Item={"pk": {"S": "before"}})
    out = ddb.update_continuous_backups(
        TableName=table, PointInTimeRecoverySpecification={
            "PointInTimeRecoveryEnabled": True})
    pitr = out["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert pitr["PointInTimeRecoveryStatus"] == "ENABLED"
    assert pitr["EarliestRestorableDateTime"] <= pitr["LatestRestorableDateTime"]
    ddb.put_item(TableName=table, Item={"pk": {"S": "v"}, "n": {"N": "1"}})
    time.sleep(0.01)
    mid = ddb.describe_continuous_backups(TableName=table)[
        "ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"][
        "LatestRestorableDateTime"]
    time.sleep(0.01)
    ddb.put_item(TableName=table, Item={"pk": {"S": "v"}, "n": {"N": "2"}})
    ddb.delete_item(TableName=table, Key={"pk": {"S": "before"}})

    at_mid = table + "-mid"
    # botocore sends whole seconds; DynamoDB takes fractions: send it raw.
    status, body = call_raw(endpoint, "RestoreTableToPointInTime", {
        "SourceTableName": table, "TargetTableName": at_mid,
        "RestoreDateTime": mid.timestamp()})
    assert status == 200, body
    ddb.get_waiter("table_exists").wait(TableName=at_mid, WaiterConfig=WAIT)
    assert all_items(ddb, at_mid) == [{"pk": {"S": "before"}},
                                      {"pk": {"S": "v"}, "n": {"N": "1"}}]
    latest = table + "-latest"
    ddb.restore_table_to_point_in_time(SourceTableName=table, TargetTableName=latest,
                                       UseLatestRestorableTime=True)
    ddb.get_waiter("table_exists").wait(TableName=latest, WaiterConfig=WAIT)
    assert all_items(ddb, latest) == [{"pk": {"S": "v"}, "n": {"N": "2"}}]
    assert error_of(ddb.restore_table_to_point_in_time, SourceTableName=table,
                    TargetTableName=table + "-old",
                    RestoreDateTime=mid - datetime.timedelta(hours=1))[0] == (
        "InvalidRestoreTimeException")
    assert error_of(ddb.restore_table_to_point_in_time, SourceTableName="no-" + table,
                    TargetTableName=table + "-x", UseLatestRestorableTime=True) == (
        "SourceTableNotFoundException", f"Source table not found: no-{table}")
    off = ddb.update_continuous_backups(
        TableName=table, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": False})
    assert off["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"] == {
        "PointInTimeRecoveryStatus": "DISABLED"}


def test_snapshot_extension_and_cli(start_server, tmp_path):
    """The DynamoRock_20251121 snapshot calls and `dynarock snapshot`: take a
    snapshot, change the database, reset it, over HTTP and with the CLI
    against the running server."""
    import subprocess
    from conftest import dynarock_bin

    server = start_server("--db-path", str(tmp_path / "db"))
    ddb = server.client()
    name = unique_name("snap")
    create_simple_table(ddb, name)
    ddb.put_item(TableName=name, Item={"pk": {"S": "seed"}})
    status, body = call_raw(server.url, "", {}, target="DynamoRock_20251121.CreateSnapshot",
                            payload={"SnapshotName": "clean"})
    assert status == 200, body
    assert body["SnapshotDescription"]["SnapshotName"] == "clean"

    ddb.put_item(TableName=name, Item={"pk": {"S": "test-write"}})
    other = unique_name("snap-other")
    create_simple_table(ddb, other)
    cli = [str(dynarock_bin()), "snapshot"]
    out = subprocess.run(cli + ["restore", "clean", "--endpoint", server.url],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert ddb.scan(TableName=name)["Items"] == [{"pk": {"S": "seed"}}]
    assert other not in ddb.list_tables()["TableNames"]

    out = subprocess.run(cli + ["list", "--endpoint", server.url],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert [s["SnapshotName"] for s in json.loads(out.stdout)["Snapshots"]] == ["clean"]
    out = subprocess.run(cli + ["restore", "missing", "--endpoint", server.url],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 1
    assert "ResourceNotFoundException: Snapshot not found: missing" in out.stderr
    status, body = call_raw(server.url, "", {}, target="DynamoRock_20251121.DeleteSnapshot",
                            payload={"SnapshotName": "clean"})
    assert status == 200, body
