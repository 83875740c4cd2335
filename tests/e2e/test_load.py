"""`dynarock load` against a served instance: the real binary loads model
files over HTTP, and boto3 reads the tables back."""

import subprocess
from pathlib import Path

import pytest

from conftest import REGION, DynarockServer, dynarock_bin

MODELS = Path(__file__).resolve().parents[1] / "data" / "models"
KEY = "AKIDLOAD"


@pytest.fixture(scope="module")
def load_server():
    s = DynarockServer("--in-memory")
    yield s
    s.stop()


def load(server, *args):
    return subprocess.run(
        [str(dynarock_bin()), "load", "--endpoint", server.url,
         "--access-key-id", KEY, "--region", REGION, *map(str, args)],
        capture_output=True, text=True, timeout=60)


def test_loads_a_workbench_model_and_boto3_reads_it(load_server):
    r = load(load_server, MODELS / "an-online-shop" / "AnOnlineShop_14.json")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("loaded 1 table(s), 19 item(s) into http://")
    ddb = load_server.client(key=KEY)
    table = ddb.describe_table(TableName="OnlineShop")["Table"]
    assert table["TableStatus"] == "ACTIVE"
    assert table["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    assert sorted(g["IndexName"] for g in table["GlobalSecondaryIndexes"]) == ["GSI1", "GSI2"]
    assert ddb.scan(TableName="OnlineShop", Select="COUNT")["Count"] == 19
    # Pattern 8 (shipments of an order) and pattern 13 (GSI2, shipments of a
    # warehouse): the loader waited for the GSIs.
    items = ddb.query(
        TableName="OnlineShop",
        KeyConditionExpression="PK = :o AND begins_with(SK, :sh)",
        ExpressionAttributeValues={":o": {"S": "o#12345"}, ":sh": {"S": "sh#"}})["Items"]
    assert [i["SK"]["S"] for i in items] == ["sh#88899", "sh#98765"]
    items = ddb.query(
        TableName="OnlineShop", IndexName="GSI2",
        KeyConditionExpression="#pk = :w AND begins_with(#sk, :sh)",
        ExpressionAttributeNames={"#pk": "GSI2-PK", "#sk": "GSI2-SK"},
        ExpressionAttributeValues={":w": {"S": "w#12345"}, ":sh": {"S": "sh#"}})["Items"]
    assert [i["SK"]["S"] for i in items] == ["sh#98765"]
    # The tables belong to the access key the loader signed with.
    assert "OnlineShop" not in load_server.client(key="AKIDOTHER").list_tables()["TableNames"]


def test_existing_table_is_refused_and_replace_recreates_it(load_server):
    path = MODELS / "developer-guide-sample-tables" / "Forum.json"
    assert load(load_server, path).returncode == 0
    r = load(load_server, path)
    assert r.returncode == 1
    assert "Table already exists: Forum (--replace deletes and recreates it)" in r.stderr
    r = load(load_server, "--replace", path)
    assert r.returncode == 0, r.stderr
    ddb = load_server.client(key=KEY)
    assert ddb.scan(TableName="Forum", Select="COUNT")["Count"] == 2


def test_invalid_items_load_nothing_unless_skipped(load_server):
    path = MODELS / "gaming-player-profiles" / "GamePlayerProfilesSchema.json"
    r = load(load_server, path)
    assert r.returncode == 1
    lines = [l for l in r.stderr.splitlines() if l.startswith("invalid item: ")]
    assert lines and all("table game-player-profiles, item " in l and "(facet " in l
                         for l in lines)
    ddb = load_server.client(key=KEY)
    assert "game-player-profiles" not in ddb.list_tables()["TableNames"]

    r = load(load_server, "--skip-invalid", path)
    assert r.returncode == 0, r.stderr
    skipped = len(lines)
    assert f"({skipped} invalid item(s) skipped)" in r.stdout
    assert ddb.scan(TableName="game-player-profiles",
                    Select="COUNT")["Count"] == 14 - skipped


def test_progress_bar_on_request(load_server):
    r = load(load_server, "--progress",
             MODELS / "developer-guide-sample-tables" / "ProductCatalog.json")
    assert r.returncode == 0, r.stderr
    assert "8/8 items" in r.stderr


def test_unreachable_endpoint_and_unknown_format_fail_cleanly(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    r = subprocess.run([str(dynarock_bin()), "load", "--in-memory", str(bad)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "not a NoSQL Workbench model" in r.stderr
    r = subprocess.run(
        [str(dynarock_bin()), "load", "--endpoint", "http://127.0.0.1:1",
         str(MODELS / "developer-guide-sample-tables" / "Forum.json")],
        capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert "cannot reach the endpoint" in r.stderr


def test_in_process_db_path_is_served_afterwards(tmp_path):
    db = tmp_path / "db"
    r = subprocess.run(
        [str(dynarock_bin()), "load", "--db-path", str(db), "--access-key-id", KEY,
         "--region", REGION, str(MODELS / "developer-guide-sample-tables" / "Reply.json")],
        capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    s = DynarockServer("--db-path", str(db))
    try:
        ddb = s.client(key=KEY)
        items = ddb.query(
            TableName="Reply", IndexName="PostedBy-Message-Index",
            KeyConditionExpression="PostedBy = :u",
            ExpressionAttributeValues={":u": {"S": "User A"}})["Items"]
        assert len(items) == 3
    finally:
        s.stop()
