"""Throttling and the capacity surface against a real server (throttling on,
the default): ProvisionedThroughputExceededException with ThrottlingReasons
through boto3, a hot key on an on-demand table, boto3's batch_writer over
UnprocessedItems, `dynarock stats`, DescribeLimits (boto3 and the AWS CLI),
and a `--throttling off` server that never throttles.

The workloads count on the model's figures (engine/capacity/
throughput_controller.h): a provisioned table has 300 s of burst at its
WCU; a partition serves 1,000 WCU/s with one second of burst. A bucket
admits a request while its balance is positive, so the request that empties
it still goes through (into debt) and the next one is refused.
"""

import json
import os
import subprocess

import boto3
import pytest
from botocore.config import Config
from boto3.dynamodb.conditions import Key
from boto3.dynamodb.types import TypeDeserializer
from botocore.exceptions import ClientError

from conftest import REGION, dynarock_bin, unique_name
from test_aws_cli import aws_binary
from test_indexes import extension

KB = 1024


@pytest.fixture
def ddb(server):
    """No retries at all. botocore counts `max_attempts` in the retries
    config as retries after the first attempt (its `total_max_attempts`
    includes it), so conftest's max_attempts 1 still retries a throttle once,
    after up to a second: enough for a partition bucket to refill."""
    return boto3.client(
        "dynamodb", endpoint_url=server.url, region_name=REGION,
        aws_access_key_id="AKIDE2E", aws_secret_access_key="secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}))


def big_item(pk, kb, sk=None):
    """An item of `kb` KB (a few bytes less with a sort key), so `kb` WCU."""
    item = {"pk": {"S": pk}}
    size = 2 + len(pk) + 1  # "pk" + value + "v"
    if sk is not None:
        item["sk"] = {"N": str(sk)}
        size += 2 + 4  # "sk" + at most 4 bytes for a small number
    item["v"] = {"S": "x" * (kb * KB - size)}
    return item


def create_table(ddb, name, wcu=None, range_key=False):
    """PROVISIONED at 1 RCU / `wcu` WCU, or PAY_PER_REQUEST when wcu is None."""
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
    if range_key:
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        attrs.append({"AttributeName": "sk", "AttributeType": "N"})
    billing = ({"BillingMode": "PAY_PER_REQUEST"} if wcu is None else
               {"ProvisionedThroughput": {"ReadCapacityUnits": 1,
                                          "WriteCapacityUnits": wcu}})
    arn = ddb.create_table(TableName=name, KeySchema=keys, AttributeDefinitions=attrs,
                           **billing)["TableDescription"]["TableArn"]
    ddb.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    return arn


def capture_error_bodies(client, operation):
    """Raw bodies of `operation`'s error responses (botocore 1.29 does not
    model ThrottlingReasons, so the parsed error lacks them)."""
    bodies = []

    def keep(http_response, **_):
        if http_response.status_code >= 400:
            bodies.append(json.loads(http_response.content))

    client.meta.events.register(f"after-call.dynamodb.{operation}", keep)
    return bodies


def put_until_throttled(ddb, table, items):
    """Puts the items in order until one is refused; returns (index, error)."""
    for i, item in enumerate(items):
        try:
            ddb.put_item(TableName=table, Item=item)
        except ClientError as e:
            return i, e
    pytest.fail(f"no write of {len(items)} was throttled")


def hot_key_writes(ddb, table, count=12):
    """~390 WCU writes at one partition key: past 1,000 WCU in well under a
    second, so the partition (not the on-demand table) refuses one."""
    return put_until_throttled(ddb, table, [big_item("hot", 390) for _ in range(count)])


def test_provisioned_table_refuses_writes_beyond_its_burst(ddb, table_name):
    arn = create_table(ddb, table_name, wcu=1)
    bodies = capture_error_bodies(ddb, "PutItem")
    # 300 units of burst: the first 300 WCU write empties the table bucket,
    # the second finds a few milli-units refilled and goes into debt, the
    # third is refused. The partition (1,000 units) never runs dry first.
    items = [big_item(f"k{i}", 300) for i in range(5)]
    i, error = put_until_throttled(ddb, table_name, items)
    assert 1 <= i <= 2, i
    assert error.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert error.response["ResponseMetadata"]["HTTPStatusCode"] == 400
    assert bodies[-1]["ThrottlingReasons"] == [
        {"reason": "TableWriteProvisionedThroughputExceeded", "resource": arn}]
    # Refused whole: the item is not there.
    got = ddb.get_item(TableName=table_name, Key={"pk": {"S": f"k{i}"}})
    assert "Item" not in got


def test_hot_key_on_demand_is_a_key_range_throttle(ddb, table_name):
    arn = create_table(ddb, table_name)
    bodies = capture_error_bodies(ddb, "PutItem")
    i, error = hot_key_writes(ddb, table_name)
    assert i >= 2, i  # 1,000 units of partition burst: two 390 WCU writes fit
    assert error.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    reasons = bodies[-1]["ThrottlingReasons"]
    assert reasons == [{"reason": "TableWriteKeyRangeThroughputExceeded",
                        "resource": arn}], reasons


def test_batch_writer_finishes_through_unprocessed_items(server, table_name):
    # The SDK's own retries (legacy mode: 10 attempts, 50 ms base) cover a
    # batch refused whole; batch_writer re-sends UnprocessedItems itself.
    resource = boto3.resource(
        "dynamodb", endpoint_url=server.url, region_name=REGION,
        aws_access_key_id="AKIDE2E", aws_secret_access_key="secret",
        config=Config(retries={"max_attempts": 10, "mode": "legacy"}))
    client = resource.meta.client
    create_table(client, table_name, range_key=True)
    unprocessed = []

    def count_unprocessed(parsed, **_):
        unprocessed.append(sum(len(v) for v in parsed.get("UnprocessedItems", {}).values()))

    client.meta.events.register("after-call.dynamodb.BatchWriteItem", count_unprocessed)
    table = resource.Table(table_name)
    # 20 x 100 WCU at one partition key: 2,000 units on a partition that
    # serves 1,000 a second.
    deserializer = TypeDeserializer()
    with table.batch_writer() as batch:
        for sk in range(20):
            item = big_item("hot", 100, sk=sk)
            batch.put_item(Item={k: deserializer.deserialize(v) for k, v in item.items()})
    assert any(unprocessed), unprocessed  # some items came back throttled
    count, page = 0, {}
    while True:  # 2 MB of items: Query pages stop at 1 MB
        page = table.query(Select="COUNT", KeyConditionExpression=Key("pk").eq("hot"),
                           **({"ExclusiveStartKey": page["LastEvaluatedKey"]}
                              if "LastEvaluatedKey" in page else {}))
        count += page["Count"]
        if "LastEvaluatedKey" not in page:
            break
    assert count == 20


def run_stats(server, table, *args):
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDE2E", AWS_REGION=REGION)
    return subprocess.run(
        [str(dynarock_bin()), "stats", table, "--endpoint", server.url, *args],
        env=env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)


def test_dynarock_stats_shows_partitions_and_the_hot_key(server, ddb, table_name):
    create_table(ddb, table_name)
    ddb.put_item(TableName=table_name, Item=big_item("cold", 1))  # before "hot"
    hot_key_writes(ddb, table_name)  # may share its partition

    proc = run_stats(server, table_name, "--json", "--hot-keys", "2")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    assert stats["BillingMode"] == "PAY_PER_REQUEST"
    t = stats["Table"]
    assert t["TableName"] == table_name
    assert len(t["Partitions"]) >= 1
    assert sum(p["ItemCount"] for p in t["Partitions"]) == 2
    assert t["LastMinute"]["ThrottledWriteRequests"] >= 1
    hot = t["HotKeys"]
    assert len(hot) == 2 and "hot" in hot[0]["Key"], hot
    assert hot[0]["WriteUnits"] >= 780 and hot[0]["ThrottledUnits"] >= 390, hot

    proc = run_stats(server, table_name)
    assert proc.returncode == 0, proc.stderr
    assert f"Table {table_name}" in proc.stdout
    assert "Partitions:" in proc.stdout and "HASH RANGE" in proc.stdout
    assert "Hot keys: 2" in proc.stdout

    # Another namespace does not see the table.
    proc = run_stats(server, table_name, "--access-key-id", "someone-else")
    assert proc.returncode == 1
    assert "ResourceNotFoundException" in proc.stderr


LIMITS = {"AccountMaxReadCapacityUnits": 80000, "AccountMaxWriteCapacityUnits": 80000,
          "TableMaxReadCapacityUnits": 40000, "TableMaxWriteCapacityUnits": 40000}


def test_describe_limits_through_boto3_and_the_cli(ddb, server, tmp_path):
    got = ddb.describe_limits()
    del got["ResponseMetadata"]
    assert got == LIMITS
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "AWS_ACCESS_KEY_ID": "AKIDCLI", "AWS_SECRET_ACCESS_KEY": "secret",
           "AWS_DEFAULT_REGION": REGION, "AWS_CONFIG_FILE": str(tmp_path / "none"),
           "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "none"), "AWS_PAGER": "",
           "AWS_EC2_METADATA_DISABLED": "true"}
    proc = subprocess.run(
        [aws_binary(), "dynamodb", "describe-limits", "--endpoint-url", server.url,
         "--output", "json"], env=env, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == LIMITS


def test_throttling_off_never_throttles(start_server):
    server = start_server("--in-memory", "--throttling", "off")
    ddb = boto3.client(
        "dynamodb", endpoint_url=server.url, region_name=REGION,
        aws_access_key_id="AKIDE2E", aws_secret_access_key="secret",
        config=Config(retries={"total_max_attempts": 1, "mode": "standard"}))
    name = unique_name("nothrottle")
    create_table(ddb, name)
    for _ in range(8):  # 3,120 WCU at one key, where the default server refuses the 3rd
        ddb.put_item(TableName=name, Item=big_item("hot", 390))
    status, stats = extension(server.url, "DescribeCapacity", {"TableName": name})
    assert status == 200, stats
    assert stats["Table"]["Total"]["ConsumedWriteUnits"] == 8 * 390  # still metered
    # Switched on at runtime, the same workload is refused.
    assert extension(server.url, "SetThrottling", {"Enabled": True}) == (
        200, {"Enabled": True})
    with pytest.raises(ClientError) as e:
        for _ in range(8):
            ddb.put_item(TableName=name, Item=big_item("hot", 390))
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
