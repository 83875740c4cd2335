"""The simulated clock is the engine's clock: every time rule follows
clock.advance, and nothing here sleeps or reads the wall clock."""

import pytest

import dynarock
from conftest import create_table


def test_now_and_advance(sim):
    assert sim.clock.simulated
    assert sim.clock.now() == 1_700_000_000.0
    sim.clock.advance(2.5)
    assert sim.clock.now() == 1_700_000_002.5
    assert sim.clock.now_micros() == 1_700_000_002_500_000
    sim.clock.set(1_700_000_100)
    assert sim.clock.now() == 1_700_000_100.0
    with pytest.raises(ValueError):
        sim.clock.advance(-1)
    with pytest.raises(ValueError):
        sim.clock.set(1_000)
    with pytest.raises(ValueError):
        sim.clock.advance(float("nan"))


def test_real_clock_cannot_be_advanced(dynarock_engine):
    assert not dynarock_engine.clock.simulated
    with pytest.raises(RuntimeError, match="real clock"):
        dynarock_engine.clock.advance(1)


@pytest.mark.dynarock_clock(1_800_000_000.0)
def test_marker_gives_a_simulated_clock(dynarock_clock, dynarock_client):
    assert dynarock_clock.simulated and dynarock_clock.now() == 1_800_000_000.0
    create_table(dynarock_client)
    created = dynarock_client.describe_table(TableName="tbl")["Table"]["CreationDateTime"]
    assert created.timestamp() == 1_800_000_000.0


def test_table_creation_delay_follows_the_clock():
    with dynarock.Engine(clock="simulated", table_create_delay=5.0) as eng:
        ddb = eng.client()
        ddb.create_table(TableName="tbl", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        assert ddb.describe_table(TableName="tbl")["Table"]["TableStatus"] == "CREATING"
        eng.clock.advance(4.9)
        assert ddb.describe_table(TableName="tbl")["Table"]["TableStatus"] == "CREATING"
        # The waiter waits in simulated time: it advances the clock by Delay.
        ddb.get_waiter("table_exists").wait(TableName="tbl",
                                            WaiterConfig={"Delay": 1, "MaxAttempts": 3})
        assert ddb.describe_table(TableName="tbl")["Table"]["TableStatus"] == "ACTIVE"
        assert eng.clock.now() == pytest.approx(1_700_000_005.9)


def test_throttling_and_bucket_refill(sim):
    ddb = sim.client()
    create_table(ddb, ProvisionedThroughput={"ReadCapacityUnits": 5,
                                             "WriteCapacityUnits": 5})
    # With the clock standing still the buckets never refill: writes
    # succeed until the burst is spent, then every one is throttled.
    ok = 0
    while True:
        try:
            ddb.put_item(TableName="tbl", Item={"pk": {"S": f"k{ok}"}})
            ok += 1
        except ddb.exceptions.ProvisionedThroughputExceededException as e:
            assert e.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
            break
        assert ok < 100_000
    assert ok >= 5
    with pytest.raises(dynarock.ClientError):
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "again"}})
    cap = sim.describe_capacity(TableName="tbl")
    assert cap["Table"]["TableName"] == "tbl"
    # Ten simulated seconds at 5 WCU/s refill 50 units.
    sim.clock.advance(10)
    for i in range(40):
        ddb.put_item(TableName="tbl", Item={"pk": {"S": f"after{i}"}})


def test_ttl_expiry_follows_advance(sim):
    ddb = sim.client()
    create_table(ddb)
    ddb.update_time_to_live(TableName="tbl", TimeToLiveSpecification={
        "Enabled": True, "AttributeName": "exp"})
    now = int(sim.clock.now())
    ddb.put_item(TableName="tbl", Item={"pk": {"S": "short"}, "exp": {"N": str(now + 60)}})
    ddb.put_item(TableName="tbl", Item={"pk": {"S": "long"}, "exp": {"N": str(now + 3600)}})
    sim.clock.advance(59)
    assert ddb.scan(TableName="tbl")["Count"] == 2
    sim.clock.advance(5)  # past the expiry and the next sweep
    keys = [i["pk"]["S"] for i in ddb.scan(TableName="tbl")["Items"]]
    assert keys == ["long"]


def test_gsi_lag_follows_advance():
    with dynarock.Engine(clock="simulated", gsi_lag=2.0) as eng:
        ddb = eng.client()
        create_table(ddb, ExtraAttributes=[{"AttributeName": "g", "AttributeType": "S"}],
                     GlobalSecondaryIndexes=[{
                         "IndexName": "gsi1",
                         "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                         "Projection": {"ProjectionType": "ALL"}}])
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}, "g": {"S": "x"}})

        def in_index():
            return ddb.query(TableName="tbl", IndexName="gsi1", KeyConditionExpression="g = :g",
                             ExpressionAttributeValues={":g": {"S": "x"}})["Count"]
        assert in_index() == 0
        eng.clock.advance(1.9)
        assert in_index() == 0
        eng.clock.advance(0.2)
        assert in_index() == 1


def test_eventual_read_lag_follows_advance():
    with dynarock.Engine(clock="simulated", eventual_read_lag=1.0) as eng:
        ddb = eng.client()
        create_table(ddb)
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}})

        def seen(consistent):
            return "Item" in ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}},
                                          ConsistentRead=consistent)
        assert seen(True) and not seen(False)
        eng.clock.advance(0.9)
        assert not seen(False)
        eng.clock.advance(0.1)
        assert seen(False)


def test_idempotency_window_follows_advance(sim):
    ddb = sim.client()
    create_table(ddb)

    def write(value):
        return ddb.transact_write_items(ClientRequestToken="token-1", TransactItems=[
            {"Put": {"TableName": "tbl", "Item": {"pk": {"S": "a"}, "v": {"N": value}}}}])
    write("1")
    with pytest.raises(ddb.exceptions.IdempotentParameterMismatchException):
        write("2")
    sim.clock.advance(11 * 60)  # the 10-minute window has passed
    write("2")
    assert ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})["Item"]["v"] == {"N": "2"}


def test_stream_iterator_expiry_and_retention(sim):
    ddb, streams = sim.client(), sim.streams_client()
    create_table(ddb, StreamSpecification={"StreamEnabled": True,
                                           "StreamViewType": "NEW_AND_OLD_IMAGES"})
    ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}, "b": {"B": b"\x01\x02"}})
    arn = streams.list_streams(TableName="tbl")["Streams"][0]["StreamArn"]
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=it)["Records"]
    assert [r["eventName"] for r in records] == ["INSERT"]
    assert records[0]["dynamodb"]["NewImage"]["b"] == {"B": b"\x01\x02"}
    sim.clock.advance(16 * 60)  # iterators live 15 minutes
    with pytest.raises(streams.exceptions.ExpiredIteratorException):
        streams.get_records(ShardIterator=it)
    sim.clock.advance(24 * 3600)  # past the 24-hour retention: the record is trimmed
    it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"],
                                    ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    assert streams.get_records(ShardIterator=it)["Records"] == []
