"""The AWS CLI (`aws dynamodb ... --endpoint-url`) against a real server.

Uses Debian's /usr/bin/aws when present (a pyenv shim may shadow it in PATH),
isolated from any user configuration: credentials come from the
environment, config and credential files point nowhere.
"""

import json
import os
import shutil
import subprocess

import pytest

from conftest import create_simple_table, unique_name


def aws_binary():
    if os.access("/usr/bin/aws", os.X_OK):
        return "/usr/bin/aws"
    found = shutil.which("aws")
    if not found:
        pytest.fail("the AWS CLI is not installed (scripts/setup.sh installs awscli)",
                    pytrace=False)
    return found


@pytest.fixture
def aws(server, tmp_path):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "AWS_ACCESS_KEY_ID": "AKIDCLI",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
        "AWS_PAGER": "",
        "AWS_EC2_METADATA_DISABLED": "true",
        "AWS_MAX_ATTEMPTS": "1",
    }
    binary = aws_binary()

    def run(*args, check=True):
        proc = subprocess.run(
            [binary, "dynamodb", *args, "--endpoint-url", server.url, "--output", "json"],
            env=env, capture_output=True, text=True, timeout=120,
            stdin=subprocess.DEVNULL)
        if check:
            assert proc.returncode == 0, f"aws dynamodb {' '.join(args)}:\n{proc.stderr}"
        return proc

    return run


def test_table_and_item_lifecycle(aws):
    name = unique_name("cli")
    created = json.loads(aws(
        "create-table", "--table-name", name,
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "AttributeName=sk,AttributeType=N",
        "--key-schema", "AttributeName=pk,KeyType=HASH", "AttributeName=sk,KeyType=RANGE",
        "--billing-mode", "PAY_PER_REQUEST").stdout)
    assert created["TableDescription"]["TableName"] == name

    aws("wait", "table-exists", "--table-name", name)
    described = json.loads(aws("describe-table", "--table-name", name).stdout)
    assert described["Table"]["TableStatus"] == "ACTIVE"

    item = {"pk": {"S": "cli"}, "sk": {"N": "1"}, "tags": {"SS": ["a", "b"]},
            "doc": {"M": {"nested": {"L": [{"BOOL": True}, {"NULL": True}]}}},
            "blob": {"B": "AAEC"}}
    aws("put-item", "--table-name", name, "--item", json.dumps(item))
    got = json.loads(aws("get-item", "--table-name", name, "--key",
                         json.dumps({"pk": {"S": "cli"}, "sk": {"N": "1"}})).stdout)
    assert got["Item"]["doc"] == item["doc"]
    assert sorted(got["Item"]["tags"]["SS"]) == ["a", "b"]
    assert got["Item"]["blob"] == {"B": "AAEC"}

    listed = json.loads(aws("list-tables").stdout)
    assert name in listed["TableNames"]

    aws("delete-item", "--table-name", name, "--key",
        json.dumps({"pk": {"S": "cli"}, "sk": {"N": "1"}}))
    empty = aws("get-item", "--table-name", name, "--key",
                json.dumps({"pk": {"S": "cli"}, "sk": {"N": "1"}})).stdout
    assert empty.strip() == "" or "Item" not in json.loads(empty)

    aws("delete-table", "--table-name", name)
    aws("wait", "table-not-exists", "--table-name", name)
    assert name not in json.loads(aws("list-tables").stdout)["TableNames"]


def test_missing_table_fails_with_message(aws):
    proc = aws("describe-table", "--table-name", unique_name("nope"), check=False)
    assert proc.returncode != 0
    assert "ResourceNotFoundException" in proc.stderr
    assert "Requested resource not found" in proc.stderr


def test_validation_error_fails_with_message(aws):
    name = unique_name("cli-bad")
    proc = aws("create-table", "--table-name", name,
               "--attribute-definitions", "AttributeName=other,AttributeType=S",
               "--key-schema", "AttributeName=pk,KeyType=HASH",
               "--billing-mode", "PAY_PER_REQUEST", check=False)
    assert proc.returncode != 0
    assert "ValidationException" in proc.stderr


def test_time_to_live(aws):
    name = unique_name("cli-ttl")
    aws("create-table", "--table-name", name,
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST")
    aws("wait", "table-exists", "--table-name", name)
    described = json.loads(aws("describe-time-to-live", "--table-name", name).stdout)
    assert described == {"TimeToLiveDescription": {"TimeToLiveStatus": "DISABLED"}}
    updated = json.loads(aws("update-time-to-live", "--table-name", name,
                             "--time-to-live-specification",
                             "Enabled=true,AttributeName=expires").stdout)
    assert updated == {"TimeToLiveSpecification": {"Enabled": True, "AttributeName": "expires"}}
    described = json.loads(aws("describe-time-to-live", "--table-name", name).stdout)
    assert described["TimeToLiveDescription"] == {"TimeToLiveStatus": "ENABLED",
                                                  "AttributeName": "expires"}
    again = aws("update-time-to-live", "--table-name", name, "--time-to-live-specification",
                "Enabled=true,AttributeName=expires", check=False)
    assert again.returncode != 0
    assert "ValidationException" in again.stderr
    assert "TimeToLive is already enabled" in again.stderr


def test_tags(aws):
    name = unique_name("cli-tags")
    created = json.loads(aws(
        "create-table", "--table-name", name,
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST",
        "--tags", "Key=created,Value=cli").stdout)
    arn = created["TableDescription"]["TableArn"]
    aws("wait", "table-exists", "--table-name", name)
    aws("tag-resource", "--resource-arn", arn, "--tags", "Key=env,Value=prod")
    listed = json.loads(aws("list-tags-of-resource", "--resource-arn", arn).stdout)
    assert sorted((t["Key"], t["Value"]) for t in listed["Tags"]) == [
        ("created", "cli"), ("env", "prod")]
    aws("untag-resource", "--resource-arn", arn, "--tag-keys", "created")
    listed = json.loads(aws("list-tags-of-resource", "--resource-arn", arn).stdout)
    assert listed["Tags"] == [{"Key": "env", "Value": "prod"}]


def test_backup_and_continuous_backups(aws):
    name = unique_name("cli-bk")
    aws("create-table", "--table-name", name,
        "--attribute-definitions", "AttributeName=pk,AttributeType=S",
        "--key-schema", "AttributeName=pk,KeyType=HASH", "--billing-mode", "PAY_PER_REQUEST")
    aws("wait", "table-exists", "--table-name", name)
    details = json.loads(aws("create-backup", "--table-name", name,
                             "--backup-name", "nightly").stdout)["BackupDetails"]
    assert details["BackupName"] == "nightly"
    assert f":table/{name}/backup/" in details["BackupArn"]
    described = json.loads(aws("describe-continuous-backups", "--table-name", name).stdout)
    assert described["ContinuousBackupsDescription"] == {
        "ContinuousBackupsStatus": "ENABLED",
        "PointInTimeRecoveryDescription": {"PointInTimeRecoveryStatus": "DISABLED"}}

def test_export_table_to_point_in_time(aws, server):
    # The session server has no bucket directory: the export is accepted
    # (IN_PROGRESS) and ends FAILED with S3NoSuchBucket, as DynamoDB's would.
    ddb = server.client(key="AKIDCLI")
    name = create_simple_table(ddb, unique_name("cli-ex"))
    ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    d = json.loads(aws("export-table-to-point-in-time", "--table-arn", arn,
                       "--s3-bucket", "nobucket").stdout)["ExportDescription"]
    assert d["ExportArn"].startswith(arn + "/export/")
    assert d["ExportStatus"] in ("IN_PROGRESS", "FAILED")
    assert d["ExportFormat"] == "DYNAMODB_JSON"


def test_execute_statement(aws, server):
    # The table and item through boto3 under the CLI's access key; one `aws`
    # invocation (each costs about a second).
    ddb = server.client(key="AKIDCLI")
    name = create_simple_table(ddb, unique_name("cli-ql"))
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    out = json.loads(aws("execute-statement", "--statement",
                         f'SELECT n FROM "{name}" WHERE pk = ?',
                         "--parameters", '[{"S": "a"}]').stdout)
    assert out["Items"] == [{"n": {"N": "1"}}]
