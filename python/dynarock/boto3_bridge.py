"""Real boto3 clients and resources answered by an in-process Engine.

`Engine.boto3_client()` / `Engine.resource()` build ordinary boto3 objects
(so the resource API, boto3's retries, its waiters and every event hook
work exactly as against a server) and answer each request in process: a
`before-send` handler hands the serialized body to `api::Client::Call` and
returns the engine's response instead of opening a connection. Nothing
listens and nothing is sent; SigV4 signing still runs (boto3 cannot skip
it), which is why `Engine.client()`, which skips botocore's request
pipeline altogether, is several times faster.
"""

import boto3
from botocore.awsrequest import AWSResponse
from botocore.config import Config

from dynarock.client import _headers

_ENDPOINT = "http://dynarock.in-process.invalid"


class _Raw:
    # AWSResponse reads its body through raw.stream().
    def __init__(self, body):
        self._body = body

    def stream(self, **_):
        yield self._body


def _answer(engine, access_key_id, region, service):
    def before_send(request, **_):
        target = request.headers.get("X-Amz-Target", b"")
        if isinstance(target, bytes):
            target = target.decode()
        # api::Client::Call takes DynamoDB's operations by their bare name,
        # the other services' with their prefix (as the HTTP server does).
        op = target.split(".", 1)[1] if target.startswith("DynamoDB_20120810.") else target
        body = request.body or b"{}"
        if isinstance(body, str):
            body = body.encode()
        elif not isinstance(body, bytes):
            body = body.read()
        status, out = engine._call(op, body, access_key_id, region)
        return AWSResponse(request.url, status, _headers(out), _Raw(out))
    return before_send


def _session(region_name, aws_access_key_id):
    return boto3.session.Session(aws_access_key_id=aws_access_key_id,
                                 aws_secret_access_key="dynarock",
                                 region_name=region_name)


def boto3_client(engine, service="dynamodb", region_name="us-east-1",
                 aws_access_key_id="local", config=None):
    client = _session(region_name, aws_access_key_id).client(
        service, endpoint_url=_ENDPOINT, config=config or Config())
    client.meta.events.register(
        "before-send", _answer(engine, aws_access_key_id, region_name, service))
    return client


def boto3_resource(engine, region_name="us-east-1", aws_access_key_id="local",
                   config=None):
    resource = _session(region_name, aws_access_key_id).resource(
        "dynamodb", endpoint_url=_ENDPOINT, config=config or Config())
    resource.meta.client.meta.events.register(
        "before-send", _answer(engine, aws_access_key_id, region_name, "dynamodb"))
    return resource
