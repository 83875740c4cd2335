"""GET /metrics (docs/metrics.md): Prometheus text exposition served by
`dynarock serve`, checked with a strict parser of the text format (0.0.4)
written here, against DescribeCapacity after a known load: puts, gets, and a
hot key throttled (throttling on, client retries off). Also: --metrics off,
loopback only by default, strict authentication refuses unsigned scrapes."""

import http.client
import math
import re
from urllib.parse import urlparse

import boto3
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials
from botocore.exceptions import ClientError

from conftest import REGION, extension, unique_name

pytestmark = pytest.mark.skipif(
    __import__("os").environ.get("DYNAROCK_E2E_INPROCESS") == "1",
    reason="GET /metrics needs the HTTP server")

KEY = "AKIDMETRICS"
NS = f"{KEY}_{REGION}"

# --- a strict parser of the text exposition format, version 0.0.4 ---------

METRIC_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL_NAME = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


class ParseError(AssertionError):
    pass


def _value(text):
    if text in ("+Inf", "Inf"):
        return math.inf
    if text == "-Inf":
        return -math.inf
    if text == "NaN":
        return math.nan
    if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text):
        raise ParseError(f"bad value {text!r}")
    return float(text)


def _labels(text, pos, line):
    """Parses {a="x",b="y"} starting at text[pos] == '{'; returns (dict, end)."""
    labels = {}
    pos += 1
    while True:
        if text[pos] == "}":
            return labels, pos + 1
        m = LABEL_NAME.match(text, pos)
        if not m:
            raise ParseError(f"bad label name in {line!r}")
        name = m.group(0)
        pos = m.end()
        if text[pos:pos + 2] != '="':
            raise ParseError(f"expected =\" in {line!r}")
        pos += 2
        value = []
        while text[pos] != '"':
            if text[pos] == "\\":
                escaped = text[pos + 1]
                if escaped not in 'n"\\':
                    raise ParseError(f"bad escape in {line!r}")
                value.append("\n" if escaped == "n" else escaped)
                pos += 2
            else:
                if text[pos] == "\n":
                    raise ParseError(f"raw newline in {line!r}")
                value.append(text[pos])
                pos += 1
        pos += 1
        if name in labels:
            raise ParseError(f"label {name} twice in {line!r}")
        labels[name] = "".join(value)
        if text[pos] == ",":
            pos += 1
        elif text[pos] != "}":
            raise ParseError(f"expected , or }} in {line!r}")


def parse_exposition(text):
    """{family: {"type", "help", "samples": [(name, labels, value)]}}; raises
    ParseError on anything the format does not allow, including a family
    declared twice or samples of a family that are not together."""
    if text and not text.endswith("\n"):
        raise ParseError("the document must end with a newline")
    families = {}
    current = None
    finished = set()
    for line in text.split("\n")[:-1]:
        if line == "":
            continue
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                name = parts[2]
                if not METRIC_NAME.fullmatch(name):
                    raise ParseError(f"bad metric name {name!r}")
                fam = families.get(name)
                if fam is None:
                    if name in finished:
                        raise ParseError(f"family {name} declared again")
                    if current is not None:
                        finished.add(current)
                    fam = families[name] = {"type": "untyped", "help": None, "samples": []}
                    current = name
                elif name != current:
                    raise ParseError(f"family {name} is not together")
                if parts[1] == "TYPE":
                    if len(parts) != 4 or parts[3] not in TYPES or fam["samples"]:
                        raise ParseError(f"bad TYPE line {line!r}")
                    fam["type"] = parts[3]
                else:
                    fam["help"] = parts[3] if len(parts) == 4 else ""
            continue
        m = METRIC_NAME.match(line)
        if not m:
            raise ParseError(f"bad sample line {line!r}")
        name = m.group(0)
        pos = m.end()
        labels = {}
        if pos < len(line) and line[pos] == "{":
            labels, pos = _labels(line, pos, line)
        rest = line[pos:]
        if not rest.startswith(" "):
            raise ParseError(f"expected a space in {line!r}")
        fields = rest.split()
        if len(fields) not in (1, 2):
            raise ParseError(f"bad value part in {line!r}")
        value = _value(fields[0])
        family = current
        if family is None or not (name == family or (
                families[family]["type"] in ("histogram", "summary") and
                name in (family + "_bucket", family + "_sum", family + "_count"))):
            raise ParseError(f"sample {name} outside its family ({family})")
        families[family]["samples"].append((name, labels, value))
    for name, fam in families.items():
        if fam["type"] == "counter" and not name.endswith("_total"):
            raise ParseError(f"counter {name} does not end in _total")
        if fam["type"] == "histogram":
            _check_histogram(name, fam["samples"])
    return families


def _check_histogram(name, samples):
    series = {}
    for sample, labels, value in samples:
        key = tuple(sorted((k, v) for k, v in labels.items() if k != "le"))
        s = series.setdefault(key, {"buckets": [], "count": None, "sum": None})
        if sample.endswith("_bucket"):
            if "le" not in labels:
                raise ParseError(f"{name} bucket without le")
            s["buckets"].append((_value(labels["le"]), value))
        elif sample.endswith("_count"):
            s["count"] = value
        else:
            s["sum"] = value
    for key, s in series.items():
        bounds = [b for b, _ in s["buckets"]]
        counts = [c for _, c in s["buckets"]]
        if bounds != sorted(bounds) or not bounds or bounds[-1] != math.inf:
            raise ParseError(f"{name}{key}: buckets out of order or no +Inf")
        if counts != sorted(counts):
            raise ParseError(f"{name}{key}: buckets not cumulative")
        if s["count"] != counts[-1] or s["sum"] is None:
            raise ParseError(f"{name}{key}: _count is not the +Inf bucket, or no _sum")


def value_of(families, family, sample=None, **labels):
    """The value of the one sample of `family` whose labels include
    `labels` and have no others beyond namespace/table/index/operation
    given; None when there is none."""
    sample = sample or family
    found = [v for n, l, v in families.get(family, {"samples": []})["samples"]
             if n == sample and l == labels]
    assert len(found) <= 1, (family, labels, found)
    return found[0] if found else None


# --- helpers ------------------------------------------------------------------

def scrape(url, path="/metrics", headers=None):
    u = urlparse(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, response.getheader("Content-Type"), body


def client(url, key=KEY):
    return boto3.client("dynamodb", endpoint_url=url, region_name=REGION,
                        aws_access_key_id=key, aws_secret_access_key="secret",
                        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}))


def test_parser_refuses_what_the_format_does_not_allow():
    good = "# HELP a_total x\n# TYPE a_total counter\na_total{t=\"1\"} 2\n"
    assert parse_exposition(good)["a_total"]["samples"] == [("a_total", {"t": "1"}, 2.0)]
    for bad in ("a_total 1",                                         # no newline at the end
                "# TYPE a_total counter\na_total{t=1} 2\n",          # unquoted value
                "# TYPE a_total counter\na_total{t=\"\\x\"} 2\n",    # bad escape
                "# TYPE a counter\na 1\n",                           # counter without _total
                "# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\n# TYPE a gauge\n",  # declared twice
                "# TYPE a gauge\na one\n",                           # not a number
                "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                "h_count 1\nh_sum 0\n"):                             # not cumulative
        with pytest.raises(ParseError):
            parse_exposition(bad)


# --- the load and its figures ------------------------------------------------

def test_metrics_match_describe_capacity_after_a_known_load(start_server):
    server = start_server("--in-memory")
    ddb = client(server.url)
    name = unique_name("metrics")
    # Provisioned at 1 WCU: a 100 KB item costs 100 WCU, so after the first
    # (admitted into debt) the hot key's next puts are refused until the
    # bucket refills (100 s); no timing is asserted.
    ddb.create_table(TableName=name, ProvisionedThroughput={"ReadCapacityUnits": 5,
                                                            "WriteCapacityUnits": 1},
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    puts = throttled = 0
    for i in range(5):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}})
        puts += 1
    for _ in range(3):
        ddb.get_item(TableName=name, Key={"pk": {"S": "k1"}})
    for _ in range(10):
        puts += 1
        try:
            ddb.put_item(TableName=name, Item={"pk": {"S": "hot"}, "v": {"S": "x" * 100_000}})
        except ClientError as e:
            assert e.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
            throttled += 1
    assert throttled >= 1
    conditional = False
    try:
        ddb.put_item(TableName=name, Item={"pk": {"S": "k0"}},
                     ConditionExpression="attribute_not_exists(pk)")
    except ClientError as e:
        assert e.response["Error"]["Code"] in ("ConditionalCheckFailedException",
                                               "ProvisionedThroughputExceededException")
        conditional = e.response["Error"]["Code"] == "ConditionalCheckFailedException"
    with pytest.raises(ClientError):
        ddb.get_item(TableName="no-such-table", Key={"pk": {"S": "a"}})

    status, content_type, body = scrape(server.url)
    assert status == 200
    assert content_type == "text/plain; version=0.0.4; charset=utf-8"
    families = parse_exposition(body)
    _, capacity = extension(server.url, "DescribeCapacity", {"TableName": name}, key=KEY)
    total = capacity["Table"]["Total"]
    table = {"namespace": NS, "table": name}

    assert value_of(families, "dynamodb_consumed_write_capacity_units_total", **table) == \
        total["ConsumedWriteUnits"]
    assert value_of(families, "dynamodb_consumed_read_capacity_units_total", **table) == \
        total["ConsumedReadUnits"]
    assert value_of(families, "dynamodb_write_throttle_events_total", **table) == \
        total["ThrottledWriteRequests"]
    assert value_of(families, "dynarock_throttled_write_units_total", **table) == \
        total["ThrottledWriteUnits"]
    assert value_of(families, "dynamodb_provisioned_write_capacity_units", **table) == 1
    assert value_of(families, "dynarock_partitions", **table) == len(capacity["Table"]["Partitions"])
    # The partitions' series add up to the table's.
    partition_writes = [v for n, l, v in
                        families["dynarock_partition_consumed_write_units_total"]["samples"]
                        if l.get("table") == name]
    assert sum(partition_writes) == pytest.approx(total["ConsumedWriteUnits"])
    for p in capacity["Table"]["Partitions"]:
        labels = dict(table, partition=str(p["Id"]))
        assert value_of(families, "dynarock_partition_items", **labels) == p["ItemCount"]

    # The request series, counted where requests are dispatched.
    put = dict(table, operation="PutItem")
    assert value_of(families, "dynamodb_throttled_requests_total", **put) == \
        throttled + (0 if conditional else 1)
    assert value_of(families, "dynamodb_throttled_requests_total", **put) == \
        total["ThrottledWriteRequests"]
    assert value_of(families, "dynamodb_conditional_check_failed_requests_total", **put) == \
        (1 if conditional else None)
    latency = "dynamodb_successful_request_latency_seconds"
    assert value_of(families, latency, latency + "_count", **put) == puts - throttled
    get = dict(table, operation="GetItem")
    assert value_of(families, latency, latency + "_count", **get) == 3
    assert value_of(families, "dynarock_requests_total", **get) == 3
    # The unknown table is a user error of the namespace, never a label.
    assert value_of(families, "dynamodb_user_errors_total", namespace=NS,
                    operation="GetItem") == 1
    assert "no-such-table" not in body
    # Keys are never labels.
    for fam in families.values():
        for _, labels, _ in fam["samples"]:
            assert not {"hot", "k0", "k1"} & set(labels.values())


def test_query_and_scan_count_returned_items(start_server):
    server = start_server("--in-memory")
    ddb = client(server.url)
    name = unique_name("metrics")
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    for i in range(4):
        ddb.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}})
    assert ddb.scan(TableName=name)["Count"] == 4
    assert ddb.query(TableName=name, KeyConditionExpression="pk = :k",
                     ExpressionAttributeValues={":k": {"S": "k1"}})["Count"] == 1
    families = parse_exposition(scrape(server.url)[2])
    table = {"namespace": NS, "table": name}
    assert value_of(families, "dynamodb_returned_item_count_total", **table,
                    operation="Scan") == 4
    assert value_of(families, "dynamodb_returned_item_count_total", **table,
                    operation="Query") == 1
    assert value_of(families, "dynarock_items", **table) == 4


# --- access --------------------------------------------------------------------

def test_metrics_off_is_not_found(start_server):
    server = start_server("--in-memory", "--metrics", "off")
    status, _, _ = scrape(server.url)
    assert status == 404
    assert scrape(server.url, "/")[0] == 200  # the health check stays


def test_metrics_on_by_default_for_loopback(start_server):
    server = start_server("--in-memory")
    status, _, body = scrape(server.url)
    assert status == 200
    families = parse_exposition(body)
    assert value_of(families, "dynarock_metrics_tables") == 0


def test_strict_authentication_refuses_an_unsigned_scrape(start_server):
    key, secret = "AKIDSTRICTMETRICS", "metrics/secret"
    server = start_server("--in-memory", "--access-key", key, "--secret-key", secret)
    status, _, body = scrape(server.url)
    assert status == 400
    assert "MissingAuthenticationToken" in body
    # The same scrape signed with the server's credentials is served.
    request = AWSRequest(method="GET", url=server.url + "/metrics")
    SigV4Auth(Credentials(key, secret), "dynamodb", REGION).add_auth(request)
    status, _, body = scrape(server.url, headers=dict(request.headers.items()))
    assert status == 200, body
    parse_exposition(body)
    # Signed with a wrong secret: refused.
    request = AWSRequest(method="GET", url=server.url + "/metrics")
    SigV4Auth(Credentials(key, "wrong"), "dynamodb", REGION).add_auth(request)
    status, _, body = scrape(server.url, headers=dict(request.headers.items()))
    assert status == 400
    assert "InvalidSignature" in body
