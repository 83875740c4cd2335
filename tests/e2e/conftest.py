"""End-to-end fixtures: a real `dynarock serve` process and real clients.

Builds nothing. The binary is $DYNAROCK_BIN, else build/dynarock in the
repository (scripts/test.sh builds it). Each server listens on a free port
(--port 0) and is found from its "dynarock listening on http://..." line.

Run: /usr/bin/python3 -m pytest tests/e2e

DYNAROCK_E2E_INPROCESS=1 runs the same tests against the in-process engine
(the `dynarock` Python package, docs/python.md): every client a test gets
from a server (`ddb`, `ddb_resource`, `server.client(...)`) is then a client
of an in-process Engine opened with that server's flags, instead of boto3
over HTTP. What needs a real server (raw HTTP, the AWS CLI, `dynarock load`,
restarts and crashes) still talks to the process and sees other tables;
docs/python.md lists those tests.
"""

import http.client
import itertools
import json
import os
import re
import select
import signal
import subprocess
import time
import uuid
from pathlib import Path
from urllib.parse import urlparse

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

REPO = Path(__file__).resolve().parents[2]
LISTENING = re.compile(r"^dynarock listening on (http://\S+)")
REGION = "us-east-1"
# The account id in the ARNs of `dynarock serve` without --account-id.
ACCOUNT = "123456789012"
INPROCESS = os.environ.get("DYNAROCK_E2E_INPROCESS") == "1"


def _inprocess_engine(args):
    """An in-process dynarock.Engine with the `dynarock serve` flags in args
    that change what a client sees (the others are about HTTP or disk)."""
    import dynarock

    flags = dict(zip(args, list(args[1:]) + [None]))
    kwargs = {"throttling": flags.get("--throttling", "on") != "off",
              "shared_db": "--shared-db" in args}
    if "--account-id" in flags:
        kwargs["account_id"] = flags["--account-id"]
    if "--gsi-lag-ms" in flags:
        kwargs["gsi_lag"] = int(flags["--gsi-lag-ms"]) / 1000
    if "--ttl-sweep-interval-ms" in flags:
        kwargs["ttl_sweep_interval"] = int(flags["--ttl-sweep-interval-ms"]) / 1000
    if "--ttl-status-delay-ms" in flags:
        kwargs["ttl_status_delay"] = int(flags["--ttl-status-delay-ms"]) / 1000
    if "--ttl-deletion-spread-s" in flags:
        kwargs["ttl_deletion_spread"] = float(flags["--ttl-deletion-spread-s"])
    if "--partition-split-bytes" in flags:
        kwargs["partition_split_bytes"] = int(flags["--partition-split-bytes"])
    return dynarock.Engine(**kwargs)


def dynarock_bin():
    path = Path(os.environ.get("DYNAROCK_BIN", REPO / "build" / "dynarock"))
    if not path.is_file() or not os.access(path, os.X_OK):
        pytest.fail(f"no dynarock binary at {path}: build it (scripts/setup.sh) "
                    "or set DYNAROCK_BIN", pytrace=False)
    return path


class DynarockServer:
    """One `dynarock serve` process on a free port."""

    def __init__(self, *args):
        self.args = [str(dynarock_bin()), "serve", "--port", "0", *args]
        self.proc = None
        self.url = None
        self.engine = None  # the in-process twin (DYNAROCK_E2E_INPROCESS)
        self.start()

    def start(self, timeout=10.0):
        if self.proc is not None and self.proc.poll() is None:
            return  # running already (the constructor starts it)
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                     text=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.1)
            if ready:
                line = self.proc.stdout.readline()
                match = LISTENING.match(line)
                if match:
                    self.url = match.group(1)
                    return
            if self.proc.poll() is not None:
                break
        err = self.stop(kill=True)
        raise RuntimeError(f"dynarock did not start: {' '.join(self.args)}\n{err}")

    @property
    def port(self):
        return int(self.url.rsplit(":", 1)[1])

    def stop(self, sig=signal.SIGTERM, kill=False, timeout=15.0):
        """Stops the server; returns what it wrote to stderr."""
        if self.engine is not None and not kill:
            self.engine.engine.close()
            self.engine = None
        if self.proc is None:
            return ""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else sig)
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        self.returncode = self.proc.returncode
        self.proc = None
        return err or ""

    def client(self, key="AKIDE2E", region=REGION, service="dynamodb"):
        if INPROCESS:
            return self.inprocess().client_for(service, key, region)
        return make_client(self.url, key=key, region=region, service=service)

    def inprocess(self):
        if self.engine is None:
            self.engine = _InProcess(_inprocess_engine(self.args[4:]))
        return self.engine

    def resource(self, key="AKIDE2E", region=REGION):
        if INPROCESS:
            return self.inprocess().engine.resource(aws_access_key_id=key,
                                                    region_name=region)
        return boto3.resource(
            "dynamodb", endpoint_url=self.url, region_name=region,
            aws_access_key_id=key, aws_secret_access_key="secret")


class _InProcess:
    def __init__(self, engine):
        self.engine = engine

    def client_for(self, service, key, region):
        if service == "dynamodbstreams":
            return self.engine.streams_client(aws_access_key_id=key, region_name=region)
        return self.engine.client(aws_access_key_id=key, region_name=region)


def make_client(url, key="AKIDE2E", region=REGION, service="dynamodb"):
    return boto3.client(
        service, endpoint_url=url, region_name=region,
        aws_access_key_id=key, aws_secret_access_key="secret",
        config=Config(retries={"max_attempts": 1, "mode": "standard"},
                      connect_timeout=5, read_timeout=30))


@pytest.fixture(scope="session")
def server():
    """An in-memory server shared by the whole session."""
    s = DynarockServer("--in-memory")
    yield s
    err = s.stop()
    # A crash, or a sanitizer report at exit, fails the session.
    assert s.returncode == 0, f"dynarock exited with {s.returncode}:\n{err}"


@pytest.fixture(scope="session")
def endpoint(server):
    return server.url


@pytest.fixture
def ddb(server):
    """A low-level boto3 client of the shared server."""
    return server.client()


@pytest.fixture
def ddb_resource(server):
    return server.resource()


@pytest.fixture
def start_server():
    """Starts extra servers (flags as arguments); stops them at the end."""
    started = []

    def start(*args):
        s = DynarockServer(*args)
        started.append(s)
        return s

    yield start
    for s in started:
        err = s.stop()
        assert s.returncode == 0, f"dynarock exited with {s.returncode}:\n{err}"


def signed_call(url, target, body=None, key="AKIDE2E", region="us-east-1"):
    """POSTs `body` as X-Amz-Target `target` (e.g. "DynamoDB_20120810.UpdateTable"),
    signed by name for `key` in `region`, for what an SDK does not send (the
    DynamoRock_20251121 extensions, members newer than the installed botocore);
    returns (HTTP status, decoded body)."""
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    conn.request("POST", "/", body=json.dumps(body or {}), headers={
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": target,
        "Authorization": f"AWS4-HMAC-SHA256 Credential={key}/20251121/{region}/"
                         "dynamodb/aws4_request, SignedHeaders=host, Signature=0"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data


def extension(url, operation, body=None, key="AKIDE2E"):
    """Calls a DynamoRock_20251121 extension over HTTP (no SDK sends its
    target); returns (HTTP status, decoded body)."""
    return signed_call(url, "DynamoRock_20251121." + operation, body, key)


_counter = itertools.count()


def put_item_paced(client, attempts=200, pause=0.05, **kwargs):
    """PutItem as a DynamoDB client must write faster than a table can take:
    retry the throttles. The server throttles (--throttling on, as DynamoDB
    does), and a test that writes MBs at once to a new on-demand table (4
    partitions of 1,000 WCU/s) passes what DynamoDB would accept in that
    second; the clients here retry a throttle only once."""
    for _ in range(attempts):
        try:
            return client.put_item(**kwargs)
        except ClientError as e:
            if e.response["Error"]["Code"] != "ProvisionedThroughputExceededException":
                raise
            time.sleep(pause)
    raise AssertionError(f"PutItem still throttled after {attempts} attempts")


def unique_name(prefix="e2e"):
    return f"{prefix}-{next(_counter)}-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def table_name():
    return unique_name()


def create_simple_table(client, name, hash_type="S", range_key=None):
    """Creates a PAY_PER_REQUEST table keyed on pk (and sk) and waits for it."""
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    attrs = [{"AttributeName": "pk", "AttributeType": hash_type}]
    if range_key:
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        attrs.append({"AttributeName": "sk", "AttributeType": range_key})
    client.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=attrs,
                        BillingMode="PAY_PER_REQUEST")
    client.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    return name


@pytest.fixture
def table(ddb, table_name):
    """A fresh ACTIVE table with a string hash key `pk`."""
    return create_simple_table(ddb, table_name)
