"""Strict SigV4 mode (`dynarock serve --auth-file / --access-key --secret-key`):
real SDK signatures are verified; wrong ones get DynamoDB's errors."""

import http.client
import json

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from conftest import DynarockServer, REGION

KEY, SECRET = "AKIDSTRICT", "strict/secret+key"
FILE_KEY, FILE_SECRET = "AKIDFROMFILE", "file-secret"


@pytest.fixture(scope="module")
def strict(tmp_path_factory):
    auth = tmp_path_factory.mktemp("auth") / "credentials"
    auth.write_text(f"[default]\naws_access_key_id = {FILE_KEY}\n"
                    f"aws_secret_access_key = {FILE_SECRET}\n")
    s = DynarockServer("--in-memory", "--auth-file", str(auth),
                       "--access-key", KEY, "--secret-key", SECRET)
    yield s
    s.stop()


def client(server, key, secret, **kw):
    return boto3.client("dynamodb", endpoint_url=server.url, region_name=REGION,
                        aws_access_key_id=key, aws_secret_access_key=secret,
                        config=Config(retries={"max_attempts": 1}), **kw)


def error(call):
    with pytest.raises(ClientError) as e:
        call()
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def test_right_credentials_work(strict):
    for key, secret in ((KEY, SECRET), (FILE_KEY, FILE_SECRET)):
        c = client(strict, key, secret)
        name = "t_" + key
        c.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                       AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}],
                       KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}])
        c.get_waiter("table_exists").wait(TableName=name,
                                          WaiterConfig={"Delay": 0.1, "MaxAttempts": 100})
        # A body of some size, so that its hash matters.
        c.put_item(TableName=name, Item={"k": {"S": "x" * 1000}, "v": {"S": "y" * 50000}})
        assert c.get_item(TableName=name, Key={"k": {"S": "x" * 1000}})["Item"]["v"] == \
            {"S": "y" * 50000}
        assert name in c.list_tables()["TableNames"]


def test_wrong_secret_is_invalid_signature(strict):
    code, message = error(lambda: client(strict, KEY, "wrong").list_tables())
    assert code == "InvalidSignatureException"
    assert message.startswith("The request signature we calculated does not match the "
                              "signature you provided.")


def test_unknown_key_is_unrecognized_client(strict):
    code, message = error(lambda: client(strict, "AKIDNOBODY", SECRET).list_tables())
    assert (code, message) == ("UnrecognizedClientException",
                               "The security token included in the request is invalid.")


def test_session_token_is_unrecognized_client(strict):
    c = client(strict, KEY, SECRET, aws_session_token="some-token")
    assert error(c.list_tables)[0] == "UnrecognizedClientException"


def test_unsigned_and_malformed_requests(strict):
    def raw(headers, body=b"{}"):
        conn = http.client.HTTPConnection("127.0.0.1", strict.port, timeout=10)
        conn.request("POST", "/", body=body, headers=dict(
            {"Content-Type": "application/x-amz-json-1.0",
             "X-Amz-Target": "DynamoDB_20120810.ListTables"}, **headers))
        res = conn.getresponse()
        data = json.loads(res.read())
        conn.close()
        return res.status, data["__type"].split("#")[1], data.get("message")

    assert raw({}) == (400, "MissingAuthenticationTokenException",
                       "Request is missing Authentication Token")
    status, kind, message = raw({"Authorization": "AWS4-HMAC-SHA256 Signature=abc",
                                 "X-Amz-Date": "20250101T000000Z"})
    assert kind == "IncompleteSignatureException"
    assert message.startswith("Authorization header requires 'Credential' parameter.")
    # A body that is not JSON is still a SerializationException first.
    conn = http.client.HTTPConnection("127.0.0.1", strict.port, timeout=10)
    conn.request("POST", "/", body=b"nope", headers={
        "Content-Type": "application/x-amz-json-1.0"})
    res = conn.getresponse()
    assert json.loads(res.read())["__type"].endswith("#SerializationException")
    # Health checks need no signature.
    conn.request("GET", "/")
    res = conn.getresponse()
    assert res.status == 200 and res.read().startswith(b"healthy: ")
    conn.close()


def test_clock_skew(strict, monkeypatch):
    """A request signed ten minutes ago (botocore's clock moved back), sent
    once, without the SDK's retries."""
    import botocore.auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    real = botocore.auth.datetime
    skewed = real.datetime.utcnow() - real.timedelta(minutes=10)

    class PastDatetime(real.datetime):
        @classmethod
        def utcnow(cls):
            return skewed

    class Clock:  # botocore.auth's `datetime` module, ten minutes behind
        def __getattr__(self, name):
            return PastDatetime if name == "datetime" else getattr(real, name)

    monkeypatch.setattr(botocore.auth, "datetime", Clock())
    request = AWSRequest(method="POST", url=strict.url + "/", data=b"{}", headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": "DynamoDB_20120810.ListTables"})
    botocore.auth.SigV4Auth(Credentials(KEY, SECRET), "dynamodb", REGION).add_auth(request)
    conn = http.client.HTTPConnection("127.0.0.1", strict.port, timeout=10)
    conn.request("POST", "/", body=b"{}", headers=dict(request.headers.items()))
    res = conn.getresponse()
    body = json.loads(res.read())
    conn.close()
    assert res.status == 400
    assert body["__type"].endswith("#InvalidSignatureException"), body
    assert body["message"].startswith("Signature expired: ")
    assert body["message"].endswith(" - 5 min.)")


def test_default_server_accepts_any_credentials(server):
    c = client(server, "ANYKEY", "any-secret")
    assert "TableNames" in c.list_tables()
