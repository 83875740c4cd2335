"""BatchGetItem and BatchWriteItem through boto3 against a real
`dynarock serve`: batch_writer, batch_get_item over several tables,
all-or-nothing writes, limits and UnprocessedKeys."""

import pytest
from botocore.exceptions import ClientError

from conftest import create_simple_table, put_item_paced, unique_name


@pytest.fixture
def two_tables(ddb):
    return (create_simple_table(ddb, unique_name("b1")),
            create_simple_table(ddb, unique_name("b2"), range_key="N"))


def error_of(excinfo):
    err = excinfo.value.response["Error"]
    return err["Code"], err["Message"]


def test_batch_writer_and_batch_get_over_two_tables(ddb, ddb_resource, two_tables):
    hash_table, range_table = two_tables
    with ddb_resource.Table(hash_table).batch_writer() as batch:
        for i in range(60):  # more than 25: the writer sends several batches
            batch.put_item(Item={"pk": f"k{i}", "n": i})
        batch.delete_item(Key={"pk": "k0"})
    with ddb_resource.Table(range_table).batch_writer(overwrite_by_pkeys=["pk", "sk"]) as batch:
        for i in range(5):
            batch.put_item(Item={"pk": "p", "sk": i, "v": "old"})
            batch.put_item(Item={"pk": "p", "sk": i, "v": "new"})  # deduplicated by boto3
    assert ddb.describe_table(TableName=hash_table)["Table"]["ItemCount"] == 59

    r = ddb_resource.batch_get_item(RequestItems={
        hash_table: {"Keys": [{"pk": "k0"}, {"pk": "k1"}, {"pk": "k59"}],
                     "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "n"}},
        range_table: {"Keys": [{"pk": "p", "sk": i} for i in range(5)],
                      "ConsistentRead": True},
    })
    assert r["UnprocessedKeys"] == {}
    assert sorted(int(i["n"]) for i in r["Responses"][hash_table]) == [1, 59]
    assert sorted(int(i["sk"]) for i in r["Responses"][range_table]) == list(range(5))
    assert {i["v"] for i in r["Responses"][range_table]} == {"new"}


def test_a_bad_request_writes_nothing(ddb, two_tables):
    hash_table, range_table = two_tables
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={
            hash_table: [{"PutRequest": {"Item": {"pk": {"S": "written?"}}}}],
            range_table: [{"PutRequest": {"Item": {"pk": {"S": "p"}, "sk": {"S": "no"}}}}],
        })
    assert error_of(e) == ("ValidationException",
                           "The provided key element does not match the schema")
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "written?"}})

    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={hash_table: [
            {"PutRequest": {"Item": {"pk": {"S": "dup"}}}},
            {"DeleteRequest": {"Key": {"pk": {"S": "dup"}}}}]})
    assert error_of(e) == ("ValidationException",
                           "Provided list of item keys contains duplicates")

    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={
            hash_table: [{"PutRequest": {"Item": {"pk": {"S": "written?"}}}}],
            "missing-" + hash_table: [{"PutRequest": {"Item": {"pk": {"S": "x"}}}}]})
    assert error_of(e) == ("ResourceNotFoundException", "Requested resource not found")
    assert "Item" not in ddb.get_item(TableName=hash_table, Key={"pk": {"S": "written?"}})

    requests = [{"PutRequest": {"Item": {"pk": {"S": str(i)}}}} for i in range(26)]
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={hash_table: requests})
    code, message = error_of(e)
    assert code == "ValidationException"
    assert "Member must have length less than or equal to 25" in message
    with pytest.raises(ClientError) as e:
        ddb.batch_write_item(RequestItems={
            hash_table: requests[:20],
            range_table: [{"PutRequest": {"Item": {"pk": {"S": "p"}, "sk": {"N": str(i)}}}}
                          for i in range(6)]})
    assert error_of(e) == ("ValidationException",
                           "Too many items requested for the BatchWriteItem call")
    r = ddb.batch_write_item(RequestItems={hash_table: requests[:25]})
    assert r["UnprocessedItems"] == {}
    assert ddb.describe_table(TableName=hash_table)["Table"]["ItemCount"] == 25


def test_batch_get_limits_and_unprocessed_keys(ddb, two_tables):
    hash_table, _ = two_tables
    keys = [{"pk": {"S": f"k{i}"}} for i in range(101)]
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": keys}})
    assert "Member must have length less than or equal to 100" in error_of(e)[1]
    with pytest.raises(ClientError) as e:
        ddb.batch_get_item(RequestItems={hash_table: {"Keys": [keys[0], keys[0]]}})
    assert error_of(e) == ("ValidationException",
                           "Provided list of item keys contains duplicates")

    # 41 items of almost 400 KB: the 16 MB response holds 40 of them. They
    # are 16,400 WCU: more than a new on-demand table takes in a second.
    big = "x" * (400 * 1024 - 20)
    for i in range(41):
        put_item_paced(ddb, TableName=hash_table,
                       Item={"pk": {"S": f"big{100 + i}"}, "b": {"S": big}})
    request = {hash_table: {"Keys": [{"pk": {"S": f"big{100 + i}"}} for i in range(41)],
                            "ProjectionExpression": "pk, b"}}
    got = []
    rounds = 0
    while request and rounds < 5:
        r = ddb.batch_get_item(RequestItems=request)
        got += r["Responses"].get(hash_table, [])
        request = r["UnprocessedKeys"]
        rounds += 1
        if rounds == 1:
            assert len(got) == 40
            assert request[hash_table]["Keys"] == [{"pk": {"S": "big140"}}]
            assert request[hash_table]["ProjectionExpression"] == "pk, b"
    assert rounds == 2 and len(got) == 41
