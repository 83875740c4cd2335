"""DynamoDB Streams end to end: StreamSpecification through the dynamodb
client, records read with boto3's `dynamodbstreams` client on the same
endpoint, shards that follow partition splits, and a kill -9 that loses no
acknowledged change's record."""

import json
import os
import signal
import subprocess
import threading
import time

import pytest
from botocore.exceptions import ClientError

from conftest import REGION, DynarockServer, dynarock_bin, unique_name


@pytest.fixture(scope="module")
def server():
    """This module's own server, throttling off: the readers here page
    through shards faster than DynamoDB Streams allows (10 GetRecords per
    second per shard); test_read_limits starts one with throttling on."""
    s = DynarockServer("--in-memory", "--throttling", "off")
    yield s
    err = s.stop()
    assert s.returncode == 0, f"dynarock exited with {s.returncode}:\n{err}"


def create_stream_table(ddb, name, view="NEW_AND_OLD_IMAGES", range_key=False):
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
    if range_key:
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        attrs.append({"AttributeName": "sk", "AttributeType": "N"})
    d = ddb.create_table(
        TableName=name, KeySchema=keys, AttributeDefinitions=attrs,
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": view})
    ddb.get_waiter("table_exists").wait(
        TableName=name, WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})
    return d["TableDescription"]


def shards_of(streams, arn):
    shards, start = [], None
    while True:
        kwargs = {"StreamArn": arn}
        if start:
            kwargs["ExclusiveStartShardId"] = start
        d = streams.describe_stream(**kwargs)["StreamDescription"]
        shards += d["Shards"]
        start = d.get("LastEvaluatedShardId")
        if not start:
            return shards


def read_shard(streams, arn, shard_id, limit=None):
    """Every record of a shard from its trim horizon, following
    NextShardIterator until a closed shard ends (or an open one is dry)."""
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard_id,
                                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = []
    while it:
        kwargs = {"ShardIterator": it}
        if limit:
            kwargs["Limit"] = limit
        r = streams.get_records(**kwargs)
        records += r["Records"]
        it = r.get("NextShardIterator")
        if not r["Records"] and it:
            break  # an open shard with nothing more now
    return records


def read_all(streams, arn):
    """Records of every shard, parents before children (DescribeStream lists
    shards oldest first)."""
    out = []
    for shard in shards_of(streams, arn):
        out += read_shard(streams, arn, shard["ShardId"])
    return out


@pytest.fixture
def streams(server):
    return server.client(service="dynamodbstreams")


def test_insert_modify_remove_in_order(ddb, streams):
    name = unique_name("streams")
    desc = create_stream_table(ddb, name)
    assert desc["StreamSpecification"] == {"StreamEnabled": True,
                                           "StreamViewType": "NEW_AND_OLD_IMAGES"}
    arn = desc["LatestStreamArn"]
    assert arn == desc["TableArn"] + "/stream/" + desc["LatestStreamLabel"]
    assert ddb.describe_table(TableName=name)["Table"]["LatestStreamArn"] == arn

    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "1"}})
    ddb.update_item(TableName=name, Key={"pk": {"S": "a"}},
                    UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": {"N": "2"}})
    # Changes nothing: no record, as DynamoDB.
    ddb.update_item(TableName=name, Key={"pk": {"S": "a"}},
                    UpdateExpression="SET v = :v", ExpressionAttributeValues={":v": {"N": "2"}})
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "v": {"N": "2"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})
    ddb.delete_item(TableName=name, Key={"pk": {"S": "a"}})  # nothing to delete

    records = read_all(streams, arn)
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY", "REMOVE"]
    ins, mod, rem = records
    assert ins["eventSource"] == "aws:dynamodb"
    assert ins["awsRegion"] == "us-east-1"
    assert ins["dynamodb"]["Keys"] == {"pk": {"S": "a"}}
    assert ins["dynamodb"]["NewImage"] == {"pk": {"S": "a"}, "v": {"N": "1"}}
    assert "OldImage" not in ins["dynamodb"]
    assert mod["dynamodb"]["OldImage"]["v"] == {"N": "1"}
    assert mod["dynamodb"]["NewImage"]["v"] == {"N": "2"}
    assert rem["dynamodb"]["OldImage"]["v"] == {"N": "2"}
    assert "NewImage" not in rem["dynamodb"]
    seqs = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    assert len({r["eventID"] for r in records}) == 3
    assert all(r["dynamodb"]["StreamViewType"] == "NEW_AND_OLD_IMAGES" for r in records)
    assert all(r["dynamodb"]["SizeBytes"] > 0 for r in records)


def test_keys_only_and_batch_write(ddb, streams):
    name = unique_name("streams")
    arn = create_stream_table(ddb, name, view="KEYS_ONLY", range_key=True)["LatestStreamArn"]
    ddb.batch_write_item(RequestItems={name: [
        {"PutRequest": {"Item": {"pk": {"S": "p"}, "sk": {"N": str(i)}, "x": {"S": "y"}}}}
        for i in range(5)]})
    records = read_all(streams, arn)
    assert sorted(int(r["dynamodb"]["Keys"]["sk"]["N"]) for r in records) == list(range(5))
    for r in records:
        assert r["eventName"] == "INSERT"
        assert set(r["dynamodb"]) >= {"Keys", "SequenceNumber", "SizeBytes"}
        assert "NewImage" not in r["dynamodb"] and "OldImage" not in r["dynamodb"]


def test_update_table_stream_rules(ddb, streams, table):
    with pytest.raises(ClientError) as e:
        ddb.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
    assert e.value.response["Error"]["Code"] == "ValidationException"
    d = ddb.update_table(TableName=table, StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "NEW_IMAGE"})["TableDescription"]
    arn = d["LatestStreamArn"]
    for view in ("NEW_IMAGE", "OLD_IMAGE"):
        with pytest.raises(ClientError) as e:
            ddb.update_table(TableName=table, StreamSpecification={
                "StreamEnabled": True, "StreamViewType": view})
        assert e.value.response["Error"]["Code"] == "ValidationException"
        assert "Table already has an enabled stream" in e.value.response["Error"]["Message"]
    ddb.put_item(TableName=table, Item={"pk": {"S": "k"}})
    with pytest.raises(ClientError) as e:
        ddb.update_table(TableName=table, StreamSpecification={
            "StreamEnabled": False, "StreamViewType": "NEW_IMAGE"})
    assert e.value.response["Error"]["Message"] == (
        "One or more parameter values were invalid: If stream is being disabled, "
        "then UpdateViewType must not be specified")
    d = ddb.update_table(TableName=table, StreamSpecification={"StreamEnabled": False})
    # As DynamoDB: no StreamSpecification once disabled; the ARN stays.
    assert "StreamSpecification" not in d["TableDescription"]
    assert d["TableDescription"]["LatestStreamArn"] == arn
    # The disabled stream stays readable, DISABLED, its shards closed.
    desc = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert desc["StreamStatus"] == "DISABLED"
    assert all("EndingSequenceNumber" in s["SequenceNumberRange"] for s in desc["Shards"])
    assert [r["eventName"] for r in read_all(streams, arn)] == ["INSERT"]
    ddb.put_item(TableName=table, Item={"pk": {"S": "k2"}})
    assert len(read_all(streams, arn)) == 1
    listed = streams.list_streams(TableName=table)["Streams"]
    assert [s["StreamArn"] for s in listed] == [arn]


def test_errors(ddb, streams):
    name = unique_name("streams")
    arn = create_stream_table(ddb, name)["LatestStreamArn"]
    with pytest.raises(ClientError) as e:
        streams.describe_stream(StreamArn=arn + "x")
    assert e.value.response["Error"]["Code"] == "ResourceNotFoundException"
    with pytest.raises(ClientError) as e:
        streams.describe_stream(StreamArn="arn:aws:dynamodb:us-east-1:0:nope/x/y/zzzzzz")
    assert e.value.response["Error"]["Code"] == "ValidationException"
    with pytest.raises(ClientError) as e:
        streams.get_records(ShardIterator="garbage")
    assert e.value.response["Error"]["Code"] == "ValidationException"
    with pytest.raises(ClientError) as e:
        streams.get_records(ShardIterator="x", Limit=1001)
    assert e.value.response["Error"]["Code"] == "ValidationException"
    shard = shards_of(streams, arn)[0]["ShardId"]
    with pytest.raises(ClientError) as e:
        streams.get_shard_iterator(StreamArn=arn, ShardId="shardId-00000000000000000000-ffffffff",
                                   ShardIteratorType="LATEST")
    assert e.value.response["Error"]["Code"] == "ResourceNotFoundException"
    with pytest.raises(ClientError) as e:
        streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                   ShardIteratorType="AT_SEQUENCE_NUMBER")
    assert e.value.response["Error"]["Code"] == "ValidationException"


def test_latest_and_after_sequence_number(ddb, streams):
    name = unique_name("streams")
    arn = create_stream_table(ddb, name)["LatestStreamArn"]
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "1"}})
    shard = next(s["ShardId"] for s in shards_of(streams, arn)
                 if read_shard(streams, arn, s["ShardId"]))
    latest = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                        ShardIteratorType="LATEST")["ShardIterator"]
    first = read_shard(streams, arn, shard)[0]
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}, "n": {"N": "2"}})
    r = streams.get_records(ShardIterator=latest)["Records"]
    assert [x["dynamodb"]["NewImage"]["n"]["N"] for x in r] == ["2"]
    seq = first["dynamodb"]["SequenceNumber"]
    at = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, SequenceNumber=seq,
                                    ShardIteratorType="AT_SEQUENCE_NUMBER")["ShardIterator"]
    assert [x["dynamodb"]["SequenceNumber"] for x in
            streams.get_records(ShardIterator=at, Limit=1)["Records"]] == [seq]
    after = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, SequenceNumber=seq,
                                       ShardIteratorType="AFTER_SEQUENCE_NUMBER")["ShardIterator"]
    assert [x["dynamodb"]["NewImage"]["n"]["N"] for x in
            streams.get_records(ShardIterator=after)["Records"]] == ["2"]


def test_paging_with_limit(ddb, streams):
    name = unique_name("streams")
    arn = create_stream_table(ddb, name, range_key=True)["LatestStreamArn"]
    for i in range(12):
        ddb.put_item(TableName=name, Item={"pk": {"S": "one"}, "sk": {"N": str(i)}})
    records = read_all(streams, arn)
    shard = next(s["ShardId"] for s in shards_of(streams, arn)
                 if read_shard(streams, arn, s["ShardId"]))
    paged = read_shard(streams, arn, shard, limit=5)
    assert [r["dynamodb"]["Keys"]["sk"]["N"] for r in paged] == [str(i) for i in range(12)]
    assert len(records) == 12


def test_split_closes_shard_and_children_continue(start_server):
    s = start_server("--in-memory", "--throttling", "off",
                     "--partition-split-bytes", "10000")
    ddb, streams = s.client(), s.client(service="dynamodbstreams")
    name = unique_name("split")
    arn = create_stream_table(ddb, name)["LatestStreamArn"]
    initial = len(shards_of(streams, arn))
    written = {}
    for i in range(360):
        pk = f"k{i % 120}"
        ddb.put_item(TableName=name, Item={"pk": {"S": pk}, "v": {"N": str(i)},
                                           "pad": {"S": "x" * 400}})
        written.setdefault(pk, []).append(i)
    shards = shards_of(streams, arn)
    assert len(shards) > initial
    by_id = {sh["ShardId"]: sh for sh in shards}
    children = [sh for sh in shards if "ParentShardId" in sh]
    assert len(children) >= 2
    for child in children:
        parent = by_id[child["ParentShardId"]]
        assert "EndingSequenceNumber" in parent["SequenceNumberRange"]
        assert shards.index(parent) < shards.index(child)
    # A consumer that reads parents before children sees every change of
    # every item, in order.
    seen = {}
    for r in read_all(streams, arn):
        seen.setdefault(r["dynamodb"]["Keys"]["pk"]["S"], []).append(
            int(r["dynamodb"]["NewImage"]["v"]["N"]))
    assert seen == written


def test_kill_9_keeps_a_record_per_acknowledged_write(start_server, tmp_path):
    db = str(tmp_path / "db")
    s = DynarockServer("--db-path", db, "--throttling", "off")
    ddb = s.client()
    name = unique_name("crash")
    arn = create_stream_table(ddb, name, view="NEW_IMAGE")["LatestStreamArn"]
    acked = {}
    attempted = {}
    lock = threading.Lock()
    stop = time.monotonic() + 2.0

    def writer(w):
        client = s.client()
        n = 0
        while time.monotonic() < stop:
            pk = f"w{w}-{n % 5}"
            with lock:
                attempted.setdefault(pk, set()).add(n)
            try:
                client.put_item(TableName=name, Item={"pk": {"S": pk}, "n": {"N": str(n)}})
            except Exception:
                return
            with lock:
                acked.setdefault(pk, []).append(n)
            n += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(4)]
    for t in threads:
        t.start()
    time.sleep(1.0)
    s.stop(kill=True)
    assert s.returncode == -signal.SIGKILL
    for t in threads:
        t.join()
    s2 = start_server("--db-path", db, "--throttling", "off")
    streams = s2.client(service="dynamodbstreams")
    seen = {}
    for r in read_all(streams, arn):
        seen.setdefault(r["dynamodb"]["Keys"]["pk"]["S"], []).append(
            int(r["dynamodb"]["NewImage"]["n"]["N"]))
    assert sum(len(v) for v in acked.values()) > 0
    for pk, ns in acked.items():
        got = seen.get(pk, [])
        # Every acknowledged write has its record, once, in order; a write
        # in flight at the kill may have one too, nothing else does.
        assert got[:len(ns)] == ns, pk
        assert len(got) <= len(ns) + 1
        assert set(got) <= attempted[pk]
    assert set(seen) <= set(attempted)


def refused_within(call, attempts, calls_per_second, code="LimitExceededException"):
    """Calls `call` until it is refused with `code` "Rate exceeded" or
    `attempts` calls are made. Returns (refused, calls, seconds). A limit of
    `calls_per_second` with a one-second burst admits at most
    calls_per_second * (1 + seconds) calls, whatever the machine's speed."""
    start = time.monotonic()
    for n in range(1, attempts + 1):
        try:
            call()
        except ClientError as e:
            assert e.response["Error"]["Code"] == code, e.response
            assert e.response["Error"]["Message"] == "Rate exceeded"
            return True, n, time.monotonic() - start
    return False, attempts, time.monotonic() - start


def test_read_limits(start_server):
    s = start_server("--in-memory")  # throttling on, as `serve` defaults
    ddb = s.client()
    streams = s.client(service="dynamodbstreams")
    name = unique_name("streams")
    arn = create_stream_table(ddb, name)["LatestStreamArn"]
    shard = shards_of(streams, arn)[0]["ShardId"]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                    ShardIteratorType="LATEST")["ShardIterator"]
    refused, calls, seconds = refused_within(
        lambda: streams.get_records(ShardIterator=it), 200, 10)
    # Not refused only if the calls were too slow to exceed the rate.
    assert refused or calls <= 10 * (1 + seconds), (calls, seconds)
    # DescribeStream and ListStreams are throttled with ThrottlingException,
    # which every SDK retries (docs/streams.md).
    refused, calls, seconds = refused_within(
        lambda: streams.describe_stream(StreamArn=arn), 200, 10, "ThrottlingException")
    assert refused or calls <= 10 * (1 + seconds), (calls, seconds)


def test_dynarock_stats_shows_shards_and_lag(ddb, streams, server):
    name = unique_name("streams")
    arn = create_stream_table(ddb, name)["LatestStreamArn"]
    for i in range(3):
        ddb.put_item(TableName=name, Item={"pk": {"S": "k"}, "n": {"N": str(i)}})
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIDE2E", AWS_REGION=REGION)

    def stats(*args):
        proc = subprocess.run(
            [str(dynarock_bin()), "stats", name, "--endpoint", server.url, *args],
            env=env, capture_output=True, text=True, timeout=30,
            stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    s = json.loads(stats("--json"))["StreamStats"]
    assert s["StorageBytes"] > 0
    [stream] = s["Streams"]
    assert stream["StreamArn"] == arn and stream["Records"] == 3
    assert sum(sh["UnreadRecords"] for sh in stream["Shards"]) == 3
    assert len(read_all(streams, arn)) == 3
    s = json.loads(stats("--json"))["StreamStats"]
    shards = s["Streams"][0]["Shards"]
    assert sum(sh["UnreadRecords"] for sh in shards) == 0
    assert sum(sh["RecordsRead"] for sh in shards) == 3
    text = stats()
    assert "Stream storage:" in text and f"Stream {arn} (ENABLED): 3 records" in text
    assert "UNREAD" in text
