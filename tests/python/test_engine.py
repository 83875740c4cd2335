"""Engine lifetime: on disk and reopened, close(), threads, and a crash test
(threads calling while another closes) that must never take the interpreter
down."""

import os
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import dynarock
from conftest import create_table


def test_on_disk_engine_reopens(tmp_path):
    path = tmp_path / "db"
    with dynarock.Engine(path=path) as eng:
        ddb = eng.client()
        create_table(ddb)
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "kept"}, "b": {"B": b"\x00"}})
    assert (path / "CURRENT").exists()
    with dynarock.Engine(path=str(path)) as eng:
        item = eng.client().get_item(TableName="tbl", Key={"pk": {"S": "kept"}})["Item"]
        assert item == {"pk": {"S": "kept"}, "b": {"B": b"\x00"}}


def test_close_makes_later_calls_raise():
    eng = dynarock.Engine()
    ddb = eng.client()
    create_table(ddb)
    eng.close()
    assert eng.closed
    with pytest.raises(dynarock.EngineClosedError):
        ddb.list_tables()
    with pytest.raises(RuntimeError):  # EngineClosedError is a RuntimeError
        eng.describe_capacity(TableName="tbl")
    with pytest.raises(dynarock.EngineClosedError):
        eng.run_due_work()
    eng.close()  # idempotent


def test_bad_options_raise():
    with pytest.raises(ValueError):
        dynarock.Engine(clock="sundial")
    with pytest.raises(ValueError):
        dynarock.Engine(gsi_propagation="sometimes")
    with pytest.raises(ValueError):
        dynarock.Engine(clock="simulated", start=float("inf"))
    with pytest.raises(ValueError):
        dynarock.Engine(partition_split_bytes=0)


def test_open_failure_raises(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(RuntimeError, match="cannot open"):
        dynarock.Engine(path=blocker / "db")


def test_threads_share_one_client(dynarock_engine):
    ddb = dynarock_engine.client()
    create_table(ddb)
    errors = []

    def writer(t):
        try:
            for i in range(200):
                ddb.put_item(TableName="tbl", Item={"pk": {"S": f"{t}-{i}"}})
        except Exception as e:  # collected, asserted below
            errors.append(e)
    threads = [threading.Thread(target=writer, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert ddb.scan(TableName="tbl", Select="COUNT")["Count"] == 1600


CRASH_SCRIPT = textwrap.dedent("""
    import threading, time
    import dynarock

    for round_ in range(ROUNDS):
        eng = dynarock.Engine(clock="simulated" if round_ % 2 else "real",
                              path=None if round_ % 3 else PATH + str(round_))
        ddb = eng.client()
        ddb.create_table(TableName="tbl", BillingMode="PAY_PER_REQUEST",
                         KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
        ddb.get_waiter("table_exists").wait(TableName="tbl",
                                            WaiterConfig={"Delay": 0.01, "MaxAttempts": 500})
        started = threading.Barrier(9)
        outcomes = {"ok": 0, "closed": 0}
        lock = threading.Lock()

        def worker(t):
            started.wait()
            for i in range(100000):
                try:
                    if i % 3 == 0:
                        ddb.put_item(TableName="tbl", Item={"pk": {"S": f"{t}-{i}"}})
                    elif i % 3 == 1:
                        ddb.get_item(TableName="tbl", Key={"pk": {"S": f"{t}-{i-1}"}})
                    else:
                        ddb.query(TableName="tbl", KeyConditionExpression="pk = :p",
                                  ExpressionAttributeValues={":p": {"S": "x"}})
                    if eng.clock.simulated and i % 50 == 0:
                        eng.clock.advance(0.01)
                    with lock:
                        outcomes["ok"] += 1
                except dynarock.EngineClosedError:
                    with lock:
                        outcomes["closed"] += 1
                    return
        threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
        for t in threads:
            t.start()
        started.wait()
        # Close while every thread is calling (after some calls went through).
        while True:
            with lock:
                if outcomes["ok"] > 50 * (1 + round_ % 4):
                    break
            time.sleep(0.001)
        closers = [threading.Thread(target=eng.close) for _ in range(2)]
        for c in closers:
            c.start()
        for c in closers + threads:
            c.join()
        assert outcomes["closed"] == 8, outcomes
        assert eng.closed
    print("survived", ROUNDS, "rounds")
""")


def test_close_while_threads_call_never_crashes(tmp_path):
    # In a child process, so that a crash (abort, segfault) fails this test
    # instead of killing pytest.
    script = CRASH_SCRIPT.replace("ROUNDS", "6").replace("PATH", repr(str(tmp_path / "db")))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "survived 6 rounds" in proc.stdout


def test_export_then_import_through_the_s3_directory(tmp_path):
    # Exports and imports read and write the s3_dir as `dynarock serve
    # --s3-dir` does: bucket B is its subdirectory B.
    (tmp_path / "s3" / "bucket").mkdir(parents=True)
    with dynarock.Engine(s3_dir=tmp_path / "s3") as eng:
        ddb = eng.client()
        create_table(ddb, "src")
        ddb.update_continuous_backups(
            TableName="src",
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        for i in range(20):
            ddb.put_item(TableName="src", Item={"pk": {"S": f"k{i}"}, "n": {"N": str(i)}})
        arn = ddb.describe_table(TableName="src")["Table"]["TableArn"]
        export = ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="x")["ExportDescription"]
        for _ in range(2000):
            export = ddb.describe_export(ExportArn=export["ExportArn"])["ExportDescription"]
            if export["ExportStatus"] != "IN_PROGRESS":
                break
            time.sleep(0.01)
        assert export["ExportStatus"] == "COMPLETED", export
        export_id = export["ExportArn"].rsplit("/", 1)[1]
        assert list((tmp_path / "s3" / "bucket" / "x" / "AWSDynamoDB" / export_id).iterdir())
        started = ddb.import_table(
            S3BucketSource={"S3Bucket": "bucket",
                            "S3KeyPrefix": f"x/AWSDynamoDB/{export_id}/data/"},
            InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
            TableCreationParameters={
                "TableName": "dst", "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}]},
        )["ImportTableDescription"]
        for _ in range(2000):
            done = ddb.describe_import(ImportArn=started["ImportArn"])["ImportTableDescription"]
            if done["ImportStatus"] != "IN_PROGRESS":
                break
            time.sleep(0.01)
        assert done["ImportStatus"] == "COMPLETED", done
        assert done["ImportedItemCount"] == 20
        ddb.get_waiter("table_exists").wait(TableName="dst",
                                            WaiterConfig={"Delay": 0.01, "MaxAttempts": 500})
        items = ddb.scan(TableName="dst")["Items"]
        assert sorted(int(i["n"]["N"]) for i in items) == list(range(20))


def test_export_to_a_missing_bucket_fails_as_serve_does(tmp_path):
    with dynarock.Engine(s3_dir=tmp_path / "no-such-root") as eng:
        ddb = eng.client()
        create_table(ddb, "src")
        ddb.update_continuous_backups(
            TableName="src",
            PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
        arn = ddb.describe_table(TableName="src")["Table"]["TableArn"]
        export = ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket", S3Prefix="x")["ExportDescription"]
        for _ in range(2000):
            export = ddb.describe_export(ExportArn=export["ExportArn"])["ExportDescription"]
            if export["ExportStatus"] != "IN_PROGRESS":
                break
            time.sleep(0.01)
        assert export["ExportStatus"] == "FAILED"
        assert export["FailureCode"] == "S3NoSuchBucket"
