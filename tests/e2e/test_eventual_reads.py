"""Eventually consistent reads that lag (`dynarock serve
--eventual-read-lag-ms N`), through boto3 on a simulated clock: a read with
ConsistentRead=false of a table sees the items as they were N ms ago, as a
DynamoDB read landing on a replica outside the write quorum may; strong reads
see every acknowledged write. Without the flag every read sees the latest."""

import boto3
from botocore.config import Config

from conftest import create_simple_table, extension, unique_name, REGION

START = 1_700_000_000


def client(server):
    return boto3.client(
        "dynamodb", endpoint_url=server.url, region_name=REGION,
        aws_access_key_id="AKIDE2E", aws_secret_access_key="secret",
        config=Config(retries={"total_max_attempts": 1}))


def advance(server, seconds):
    status, out = extension(server.url, "AdvanceClock", {"Seconds": seconds})
    assert status == 200, out


def test_eventual_reads_lag_and_strong_reads_do_not(start_server):
    server = start_server("--in-memory", f"--clock=simulated={START}",
                          "--eventual-read-lag-ms", "500")
    ddb = client(server)
    name = create_simple_table(ddb, unique_name("lag"))
    key = {"pk": {"S": "a"}}
    ddb.put_item(TableName=name, Item={**key, "v": {"S": "1"}})

    def get(consistent):
        return ddb.get_item(TableName=name, Key=key, ConsistentRead=consistent).get("Item")

    def counts(consistent):
        q = ddb.query(TableName=name, KeyConditionExpression="pk = :p",
                      ExpressionAttributeValues={":p": {"S": "a"}},
                      ConsistentRead=consistent)["Count"]
        s = ddb.scan(TableName=name, ConsistentRead=consistent)["Count"]
        b = len(ddb.batch_get_item(RequestItems={
            name: {"Keys": [key], "ConsistentRead": consistent}})["Responses"][name])
        return q, s, b

    assert get(True) == {**key, "v": {"S": "1"}}
    assert get(False) is None
    assert counts(True) == (1, 1, 1)
    assert counts(False) == (0, 0, 0)
    advance(server, 0.5)
    assert get(False) == {**key, "v": {"S": "1"}}
    assert counts(False) == (1, 1, 1)
    # An overwrite: the old version until the lag has passed.
    ddb.put_item(TableName=name, Item={**key, "v": {"S": "2"}})
    assert get(False)["v"] == {"S": "1"}
    assert get(True)["v"] == {"S": "2"}
    advance(server, 0.5)
    assert get(False)["v"] == {"S": "2"}


def test_without_the_flag_every_read_sees_the_latest(start_server):
    server = start_server("--in-memory", f"--clock=simulated={START}")
    ddb = client(server)
    name = create_simple_table(ddb, unique_name("lag"))
    ddb.put_item(TableName=name, Item={"pk": {"S": "a"}})
    assert "Item" in ddb.get_item(TableName=name, Key={"pk": {"S": "a"}})
