"""Resource-based policies end to end (issue 43): PutResourcePolicy,
GetResourcePolicy, DeleteResourcePolicy and CreateTable's ResourcePolicy
over HTTP. The Debian boto3 predates these operations, so they go as
SigV4-signed raw JSON (botocore's own signer); tables are made and described
with boto3. Policies are stored and returned, never enforced."""
import http.client
import json
from urllib.parse import urlparse

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from conftest import create_simple_table, unique_name

POLICY = ('{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", '
          '"Principal": {"AWS": "000000000000"}, "Action": "dynamodb:GetItem", '
          '"Resource": "*"}]}')
COMPACT = POLICY.replace(" ", "")
NOT_FOUND = "com.amazonaws.dynamodb.v20120810#PolicyNotFoundException"


def call(server, operation, body):
    """POSTs `body` as `operation`, signed as the `ddb` fixture signs."""
    url = server.url.rstrip("/") + "/"
    request = AWSRequest(method="POST", url=url, data=json.dumps(body), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810." + operation})
    SigV4Auth(Credentials("AKIDE2E", "secret"), "dynamodb", "us-east-1").add_auth(request)
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", "/", body=request.body, headers=dict(request.headers.items()))
    res = conn.getresponse()
    data = json.loads(res.read() or b"{}")
    conn.close()
    return res.status, data


def test_put_get_delete_with_revisions(server, ddb):
    name = create_simple_table(ddb, unique_name("rp"))
    arn = ddb.describe_table(TableName=name)["Table"]["TableArn"]
    status, body = call(server, "GetResourcePolicy", {"ResourceArn": arn})
    assert (status, body["__type"]) == (400, NOT_FOUND)
    assert body["message"] == ("Resource-based policy not found for the provided "
                               "ResourceArn: " + arn)
    status, body = call(server, "PutResourcePolicy", {
        "ResourceArn": arn, "Policy": POLICY, "ExpectedRevisionId": "NO_POLICY",
        "ConfirmRemoveSelfResourceAccess": True})
    assert status == 200, body
    first = body["RevisionId"]
    # The same document again: the same revision (DynamoDB's idempotence).
    assert call(server, "PutResourcePolicy",
                {"ResourceArn": arn, "Policy": POLICY})[1] == {"RevisionId": first}
    assert call(server, "GetResourcePolicy", {"ResourceArn": arn}) == (
        200, {"Policy": COMPACT, "RevisionId": first})
    # NO_POLICY over a policy, and a stale revision, are refused.
    status, body = call(server, "PutResourcePolicy", {
        "ResourceArn": arn, "Policy": POLICY, "ExpectedRevisionId": "NO_POLICY"})
    assert (status, body["__type"]) == (400, NOT_FOUND)
    assert body["message"].endswith(
        f"expecting none to be present for table {name}, but a policy exists with "
        f"revision id {first}.")
    other = POLICY.replace("GetItem", "PutItem")
    status, body = call(server, "PutResourcePolicy", {
        "ResourceArn": arn, "Policy": other, "ExpectedRevisionId": first})
    assert status == 200, body
    second = body["RevisionId"]
    assert int(second) > int(first)
    status, body = call(server, "DeleteResourcePolicy",
                        {"ResourceArn": arn, "ExpectedRevisionId": first})
    assert (status, body["__type"]) == (400, NOT_FOUND)
    assert body["message"].endswith(
        f"revision id {first}, but the policy associated to target table {name} has "
        f"revision id {second}.")
    assert call(server, "DeleteResourcePolicy", {"ResourceArn": arn}) == (
        200, {"RevisionId": second})
    assert call(server, "GetResourcePolicy", {"ResourceArn": arn})[1]["__type"] == NOT_FOUND


def test_stream_slot_create_table_policy_and_delete_table(server, ddb):
    name = unique_name("rp")
    status, body = call(server, "CreateTable", {
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
        "ResourcePolicy": POLICY})
    assert status == 200, body
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    table = ddb.describe_table(TableName=name)["Table"]
    arn, stream_arn = table["TableArn"], table["LatestStreamArn"]
    assert call(server, "GetResourcePolicy", {"ResourceArn": arn})[1]["Policy"] == COMPACT
    # The stream has a slot of its own.
    assert call(server, "GetResourcePolicy", {"ResourceArn": stream_arn})[1]["__type"] == NOT_FOUND
    assert call(server, "PutResourcePolicy",
                {"ResourceArn": stream_arn, "Policy": POLICY})[0] == 200
    # DynamoDB's ARN checks.
    status, body = call(server, "GetResourcePolicy", {"ResourceArn": arn + "/index/g"})
    assert status == 400 and "only table or stream is accepted" in body["message"]
    status, body = call(server, "GetResourcePolicy", {"ResourceArn": arn + "x"})
    assert body["message"] == f"Requested resource not found: Table: {name}x not found"
    # Bad documents.
    status, body = call(server, "PutResourcePolicy", {"ResourceArn": arn, "Policy": "{no"})
    assert body["message"] == ("One or more parameter values were invalid: Invalid policy "
                               "document: This policy contains invalid Json")
    big = '{"Statement":[{"Resource":"*"}]' + " " * 20480 + "}"
    status, body = call(server, "PutResourcePolicy", {"ResourceArn": arn, "Policy": big})
    assert body["message"] == ("One or more parameter values were invalid: Maximum policy "
                               "size of 20480 bytes exceeded")
    # The policies go with the table.
    ddb.delete_table(TableName=name)
    ddb.get_waiter("table_not_exists").wait(TableName=name,
                                            WaiterConfig={"Delay": 0.1, "MaxAttempts": 600})
    create_simple_table(ddb, name)
    assert call(server, "GetResourcePolicy", {"ResourceArn": arn})[1]["__type"] == NOT_FOUND
