"""`dynarock serve` as a process: namespaces, --shared-db, persistence across
restarts, clean shutdown."""

import signal

from conftest import DynarockServer, create_simple_table, unique_name


def table_names(client):
    return client.list_tables(Limit=100)["TableNames"]


def test_access_keys_see_different_tables(server):
    alice = server.client(key="ALICEKEY")
    bob = server.client(key="BOBKEY")
    name = unique_name("ns")
    create_simple_table(alice, name)
    alice.put_item(TableName=name, Item={"pk": {"S": "k"}, "who": {"S": "alice"}})
    assert name in table_names(alice)
    assert name not in table_names(bob)

    # Bob may create a table of the same name: it is a different table.
    create_simple_table(bob, name)
    assert "Item" not in bob.get_item(TableName=name, Key={"pk": {"S": "k"}})
    assert alice.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["who"] == {"S": "alice"}

    # Same key, other region: another namespace too (as DynamoDB Local).
    alice_west = server.client(key="ALICEKEY", region="us-west-2")
    assert name not in table_names(alice_west)


def test_shared_db_sees_one_set_of_tables(start_server):
    s = start_server("--in-memory", "--shared-db")
    alice = s.client(key="ALICEKEY")
    bob = s.client(key="BOBKEY", region="eu-west-1")
    name = unique_name("shared")
    create_simple_table(alice, name)
    alice.put_item(TableName=name, Item={"pk": {"S": "k"}, "v": {"N": "7"}})
    assert name in table_names(bob)
    assert bob.get_item(TableName=name, Key={"pk": {"S": "k"}})["Item"]["v"] == {"N": "7"}


def test_data_survives_restart(tmp_path):
    db = tmp_path / "db"
    s = DynarockServer("--db-path", str(db))
    try:
        c = s.client()
        name = unique_name("persist")
        create_simple_table(c, name)
        for i in range(50):
            c.put_item(TableName=name,
                       Item={"pk": {"S": f"item-{i}"}, "n": {"N": str(i)},
                             "m": {"M": {"l": {"L": [{"S": "x"}, {"BOOL": True}]}}}})
        c.delete_item(TableName=name, Key={"pk": {"S": "item-7"}})
    finally:
        err = s.stop(signal.SIGTERM)
    assert s.returncode == 0, err
    assert "stopped" in err

    s2 = DynarockServer("--db-path", str(db))
    try:
        c2 = s2.client()
        assert name in table_names(c2)
        table = c2.describe_table(TableName=name)["Table"]
        assert table["TableStatus"] == "ACTIVE"
        got = c2.get_item(TableName=name, Key={"pk": {"S": "item-42"}})["Item"]
        assert got["n"] == {"N": "42"}
        assert got["m"] == {"M": {"l": {"L": [{"S": "x"}, {"BOOL": True}]}}}
        assert "Item" not in c2.get_item(TableName=name, Key={"pk": {"S": "item-7"}})
    finally:
        assert s2.stop(signal.SIGINT) is not None
    assert s2.returncode == 0


def test_sync_writes_server_keeps_acknowledged_writes_through_sigkill(tmp_path):
    db = tmp_path / "db"
    s = DynarockServer("--db-path", str(db), "--sync-writes")
    try:
        c = s.client()
        name = unique_name("synced")
        create_simple_table(c, name)
        for i in range(20):
            c.put_item(TableName=name, Item={"pk": {"S": f"k{i}"}, "n": {"N": str(i)}})
    finally:
        s.stop(kill=True)
    assert s.returncode == -signal.SIGKILL

    s2 = DynarockServer("--db-path", str(db), "--sync-writes")
    try:
        c2 = s2.client()
        items = c2.scan(TableName=name, ConsistentRead=True)["Items"]
        assert sorted(int(i["n"]["N"]) for i in items) == list(range(20))
        assert c2.describe_table(TableName=name)["Table"]["ItemCount"] == 20
    finally:
        s2.stop()


def test_sigterm_during_writes_loses_no_acknowledged_write(tmp_path):
    """Writers keep going while SIGTERM arrives: every PutItem that was
    answered 200 must be there after a restart."""
    import threading
    import time

    db = tmp_path / "db"
    s = DynarockServer("--db-path", str(db))
    name = unique_name("sigterm")
    create_simple_table(s.client(), name)
    acknowledged = [[] for _ in range(4)]
    errors = []

    def writer(i):
        c = s.client()
        n = 0
        while True:
            key = f"w{i}-{n}"
            try:
                c.put_item(TableName=name, Item={"pk": {"S": key}, "v": {"N": str(n)}})
            except Exception as e:  # the server went away: stop writing
                errors.append(type(e).__name__)
                return
            acknowledged[i].append(key)
            n += 1

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    err = s.stop(signal.SIGTERM)
    for t in threads:
        t.join(timeout=30)
    assert s.returncode == 0, err
    assert len(errors) == 4
    keys = [k for per_writer in acknowledged for k in per_writer]
    assert len(keys) > 20, "the writers barely ran"

    s2 = DynarockServer("--db-path", str(db))
    try:
        c = s2.client()
        missing = [k for k in keys
                   if "Item" not in c.get_item(TableName=name, Key={"pk": {"S": k}})]
        assert missing == []
    finally:
        s2.stop()


def test_a_second_server_on_the_same_port_fails_cleanly(server):
    import subprocess

    from conftest import dynarock_bin
    proc = subprocess.run(
        [str(dynarock_bin()), "serve", "--in-memory", "--port", str(server.port)],
        capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    assert proc.returncode == 1
    assert "cannot listen" in proc.stderr
    # The first server is unaffected.
    assert isinstance(table_names(server.client()), list)


def test_version_and_help():
    import subprocess

    from conftest import dynarock_bin
    out = subprocess.run([str(dynarock_bin()), "--version"], capture_output=True,
                         text=True, timeout=10)
    assert out.returncode == 0
    assert out.stdout.startswith("dynarock ")
    helptext = subprocess.run([str(dynarock_bin()), "serve", "--help"],
                              capture_output=True, text=True, timeout=10).stdout
    for flag in ("--host", "--port", "--db-path", "--in-memory", "--shared-db"):
        assert flag in helptext
