"""Export to S3 and import from S3 end to end with boto3, the "bucket" being
a directory under `serve --s3-dir` (docs/export.md): an export of a table
with a GSI in DynamoDB's layout (manifests, gzipped DynamoDB JSON lines),
DescribeExport / ListExports with paging, DynamoDB's errors, and an export
interrupted by a restart that ends COMPLETED after it; ImportTable of that
export into a new table (items and GSI identical), CSV imports (header row
or HeaderList, Delimiter, quotes, gzip), records counted in ErrorCount,
failures, ClientToken, and an import across a restart."""

import gzip
import json
import time

import pytest
from botocore.exceptions import ClientError

from conftest import ACCOUNT, unique_name

WAIT = {"Delay": 0.05, "MaxAttempts": 200}


def error_of(call, **kwargs):
    with pytest.raises(ClientError) as e:
        call(**kwargs)
    return e.value.response["Error"]["Code"], e.value.response["Error"]["Message"]


def create_gsi_table(ddb, name):
    ddb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "N"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "byG",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    ddb.get_waiter("table_exists").wait(TableName=name, WaiterConfig=WAIT)
    return ddb.describe_table(TableName=name)["Table"]["TableArn"]


def item(i):
    out = {"pk": {"S": f"p{i % 13}"}, "sk": {"N": str(i)}, "g": {"S": f"g{i % 5}"},
           "n": {"N": "1.50"}, "b": {"B": b"\x00\xff" + bytes([i % 256])},
           "ss": {"SS": ["a", f"x{i}"]}, "m": {"M": {"l": {"L": [{"BOOL": True}, {"NULL": True}]}}},
           "text": {"S": "caf\u00e9 \"quoted\"\n"}}
    if i % 3 == 0:
        del out["g"]
    return out


def all_items(ddb, name, index=None):
    kwargs = {"TableName": name}
    if index:
        kwargs["IndexName"] = index
    items, start = [], None
    while True:
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = ddb.scan(**kwargs)
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            return sorted(items, key=lambda i: (i["pk"]["S"], int(i["sk"]["N"])))


def wait_export(ddb, arn, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        d = ddb.describe_export(ExportArn=arn)["ExportDescription"]
        if d["ExportStatus"] != "IN_PROGRESS":
            return d
        time.sleep(0.05)
    raise AssertionError("export still IN_PROGRESS")


def read_export(bucket_dir, desc):
    """The items of a COMPLETED export, read as a consumer of DynamoDB's
    layout would: summary -> manifest-files -> gzipped data files."""
    summary = json.loads((bucket_dir / desc["ExportManifest"]).read_text())
    files = [json.loads(line) for line in
             (bucket_dir / summary["manifestFilesS3Key"]).read_text().splitlines()]
    items = []
    for f in files:
        with gzip.open(bucket_dir / f["dataFileS3Key"], "rt", encoding="utf-8") as data:
            lines = [json.loads(line) for line in data]
        assert len(lines) == f["itemCount"]
        items += [line["Item"] for line in lines]
    return summary, files, items


def to_wire(client_item):
    """boto3's decoded item (bytes for B) back to DynamoDB JSON."""
    import base64

    def conv(v):
        (t, x), = v.items()
        if t == "B":
            return {"B": base64.b64encode(x).decode()}
        if t == "BS":
            return {"BS": [base64.b64encode(b).decode() for b in x]}
        if t == "M":
            return {"M": {k: conv(e) for k, e in x.items()}}
        if t == "L":
            return {"L": [conv(e) for e in x]}
        return {t: x}
    return {k: conv(v) for k, v in client_item.items()}


@pytest.fixture
def s3(start_server, tmp_path):
    root = tmp_path / "s3"
    (root / "bucket").mkdir(parents=True)
    server = start_server("--db-path", str(tmp_path / "db"), "--s3-dir", str(root))
    return server, server.client(), root / "bucket"


def test_export_layout_and_items(s3):
    server, ddb, bucket = s3
    name = unique_name("ex")
    arn = create_gsi_table(ddb, name)
    ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    for i in range(120):
        ddb.put_item(TableName=name, Item=(item(i)))
    started = ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket",
                                                S3Prefix="exports/run1")["ExportDescription"]
    assert started["ExportStatus"] in ("IN_PROGRESS", "COMPLETED")
    assert started["ExportArn"].startswith(arn + "/export/")
    export_id = started["ExportArn"].rsplit("/", 1)[1]
    assert started["ExportManifest"] == f"exports/run1/AWSDynamoDB/{export_id}/manifest-summary.json"
    assert started["ExportFormat"] == "DYNAMODB_JSON"
    # Writes after the request are not in the export.
    ddb.put_item(TableName=name, Item=(item(1000)))
    done = wait_export(ddb, started["ExportArn"])
    assert done["ExportStatus"] == "COMPLETED", done
    assert done["ItemCount"] == 120
    assert done["BilledSizeBytes"] > 0 and "EndTime" in done
    summary, files, items = read_export(bucket, done)
    assert summary["version"] == "2020-06-30"
    assert summary["exportArn"] == done["ExportArn"] and summary["itemCount"] == 120
    assert summary["outputFormat"] == "DYNAMODB_JSON" and summary["s3Bucket"] == "bucket"
    assert summary["tableArn"] == arn
    assert all(f["dataFileS3Key"].startswith(f"exports/run1/AWSDynamoDB/{export_id}/data/")
               and f["dataFileS3Key"].endswith(".json.gz") for f in files)
    assert (bucket / f"exports/run1/AWSDynamoDB/{export_id}/_started").exists()
    expected = [to_wire(item(i)) for i in range(120)]
    key = lambda i: (i["pk"]["S"], int(i["sk"]["N"]))
    # Numbers come out in canonical form ("1.5"), as DynamoDB stores them.
    for e in expected:
        e["n"] = {"N": "1.5"}
        e["ss"] = {"SS": sorted(e["ss"]["SS"])}
    got = sorted(items, key=key)
    for g in got:
        g["ss"] = {"SS": sorted(g["ss"]["SS"])}
    assert got == sorted(expected, key=key)


def test_export_time_in_the_past(s3):
    server, ddb, bucket = s3
    name = unique_name("ex")
    arn = create_gsi_table(ddb, name)
    ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    ddb.put_item(TableName=name, Item=(item(1)))
    # The SDK sends whole seconds: `at` is the next second boundary.
    time.sleep(1.05 - time.time() % 1)
    at = time.time()
    ddb.put_item(TableName=name, Item=(item(2)))
    ddb.delete_item(TableName=name, Key={"pk": {"S": "p1"}, "sk": {"N": "1"}})
    d = wait_export(ddb, ddb.export_table_to_point_in_time(
        TableArn=arn, S3Bucket="bucket", ExportTime=at)["ExportDescription"]["ExportArn"])
    assert d["ExportStatus"] == "COMPLETED" and d["ItemCount"] == 1
    _, _, items = read_export(bucket, d)
    assert [i["sk"]["N"] for i in items] == ["1"]


def test_describe_list_and_errors(s3):
    server, ddb, bucket = s3
    name = unique_name("ex")
    arn = create_gsi_table(ddb, name)
    # PITR off.
    code, msg = error_of(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="bucket")
    assert code == "PointInTimeRecoveryUnavailableException", msg
    ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    code, _ = error_of(ddb.export_table_to_point_in_time,
                       TableArn=arn.replace(name, name + "x"), S3Bucket="bucket")
    assert code == "TableNotFoundException"
    code, _ = error_of(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="bucket",
                       ExportTime=time.time() - 86400)
    assert code == "InvalidExportTimeException"
    code, _ = error_of(ddb.describe_export, ExportArn=arn + "/export/01234567890123-abcdef01")
    assert code == "ExportNotFoundException"
    # A ClientToken reused with other parameters.
    ddb.export_table_to_point_in_time(TableArn=arn, S3Bucket="bucket", ClientToken="tok")
    code, _ = error_of(ddb.export_table_to_point_in_time, TableArn=arn, S3Bucket="bucket",
                       S3Prefix="other", ClientToken="tok")
    assert code == "ExportConflictException"
    # A missing bucket fails the export, as S3 would.
    failed = wait_export(ddb, ddb.export_table_to_point_in_time(
        TableArn=arn, S3Bucket="nobucket")["ExportDescription"]["ExportArn"])
    assert failed["ExportStatus"] == "FAILED"
    assert failed["FailureCode"] == "S3NoSuchBucket"
    arns = []
    for _ in range(3):
        arns.append(ddb.export_table_to_point_in_time(
            TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"])
    listed, token = [], None
    while True:
        kwargs = {"TableArn": arn, "MaxResults": 2}
        if token:
            kwargs["NextToken"] = token
        page = ddb.list_exports(**kwargs)
        assert len(page["ExportSummaries"]) <= 2
        listed += [s["ExportArn"] for s in page["ExportSummaries"]]
        token = page.get("NextToken")
        if not token:
            break
    assert listed[:3] == arns[::-1] and len(listed) == 5  # newest first
    code, _ = error_of(ddb.list_exports, MaxResults=26)
    assert code == "ValidationException"


def test_export_survives_restart(start_server, tmp_path):
    root = tmp_path / "s3"
    (root / "bucket").mkdir(parents=True)
    args = ("--db-path", str(tmp_path / "db"), "--s3-dir", str(root))
    server = start_server(*args)
    ddb = server.client()
    name = unique_name("ex")
    arn = create_gsi_table(ddb, name)
    ddb.update_continuous_backups(
        TableName=name, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with ddb_batch(ddb, name) as put:
        for i in range(3000):
            put(item(i))
    export_arn = ddb.export_table_to_point_in_time(
        TableArn=arn, S3Bucket="bucket")["ExportDescription"]["ExportArn"]
    # Stopped at once: the export may be running, done, or not started.
    server.stop()
    assert server.returncode == 0
    server = start_server(*args)
    ddb = server.client()
    d = ddb.describe_export(ExportArn=export_arn)["ExportDescription"]
    assert d["ExportStatus"] in ("IN_PROGRESS", "COMPLETED")
    d = wait_export(ddb, export_arn)
    assert d["ExportStatus"] == "COMPLETED" and d["ItemCount"] == 3000
    _, _, items = read_export(root / "bucket", d)
    assert len(items) == 3000


class ddb_batch:
    def __init__(self, ddb, name):
        self.ddb, self.name, self.pending = ddb, name, []

    def __enter__(self):
        return self.put

    def put(self, it):
        self.pending.append({"PutRequest": {"Item": it}})
        if len(self.pending) == 25:
            self.flush()

    def flush(self):
        while self.pending:
            out = self.ddb.batch_write_item(RequestItems={self.name: self.pending})
            self.pending = out.get("UnprocessedItems", {}).get(self.name, [])

    def __exit__(self, *exc):
        self.flush()


# --- Import ------------------------------------------------------------------

GSI_PARAMS = {
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                             {"AttributeName": "sk", "AttributeType": "N"},
                             {"AttributeName": "g", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "sk", "KeyType": "RANGE"}],
    "BillingMode": "PAY_PER_REQUEST",
    "GlobalSecondaryIndexes": [{"IndexName": "byG",
                                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                "Projection": {"ProjectionType": "ALL"}}],
}


def wait_import(ddb, arn, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        d = ddb.describe_import(ImportArn=arn)["ImportTableDescription"]
        if d["ImportStatus"] != "IN_PROGRESS":
            return d
        time.sleep(0.05)
    raise AssertionError("import still IN_PROGRESS")


def test_export_then_import_is_identical(s3):
    server, ddb, bucket = s3
    source = unique_name("src")
    arn = create_gsi_table(ddb, source)
    ddb.update_continuous_backups(
        TableName=source, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with ddb_batch(ddb, source) as put:
        for i in range(500):
            put(item(i))
    exported = wait_export(ddb, ddb.export_table_to_point_in_time(
        TableArn=arn, S3Bucket="bucket", S3Prefix="x")["ExportDescription"]["ExportArn"])
    export_id = exported["ExportArn"].rsplit("/", 1)[1]
    target = unique_name("dst")
    started = ddb.import_table(
        S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": f"x/AWSDynamoDB/{export_id}/data/"},
        InputFormat="DYNAMODB_JSON", InputCompressionType="GZIP",
        TableCreationParameters={"TableName": target, **GSI_PARAMS})["ImportTableDescription"]
    assert started["ImportStatus"] in ("IN_PROGRESS", "COMPLETED")
    assert started["TableArn"].endswith(":table/" + target)
    assert started["TableCreationParameters"]["TableName"] == target
    done = wait_import(ddb, started["ImportArn"])
    assert done["ImportStatus"] == "COMPLETED", done
    assert done["ImportedItemCount"] == 500 and done["ProcessedItemCount"] == 500
    assert done["ErrorCount"] == 0 and done["ProcessedSizeBytes"] > 0
    ddb.get_waiter("table_exists").wait(TableName=target, WaiterConfig=WAIT)
    assert all_items(ddb, target) == all_items(ddb, source)
    assert all_items(ddb, target, "byG") == all_items(ddb, source, "byG")
    assert ddb.describe_table(TableName=target)["Table"]["ItemCount"] == 500
    listed = ddb.list_imports(TableArn=started["TableArn"])["ImportSummaryList"]
    assert [s["ImportArn"] for s in listed] == [started["ImportArn"]]


def test_ion_export_then_ion_import_is_identical(s3):
    server, ddb, bucket = s3
    source = unique_name("ionsrc")
    arn = create_gsi_table(ddb, source)
    ddb.update_continuous_backups(
        TableName=source, PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    with ddb_batch(ddb, source) as put:
        for i in range(60):
            put(item(i))
    exported = wait_export(ddb, ddb.export_table_to_point_in_time(
        TableArn=arn, S3Bucket="bucket", S3Prefix="ion",
        ExportFormat="ION")["ExportDescription"]["ExportArn"])
    assert exported["ExportStatus"] == "COMPLETED" and exported["ExportFormat"] == "ION"
    export_id = exported["ExportArn"].rsplit("/", 1)[1]
    data = sorted((bucket / f"ion/AWSDynamoDB/{export_id}/data").iterdir())
    assert data and all(p.name.endswith(".ion.gz") for p in data)
    lines = [line for p in data for line in gzip.decompress(p.read_bytes()).decode().splitlines()]
    assert len(lines) == 60 and all(line.startswith("$ion_1_0 {Item:{") for line in lines)
    summary = json.loads((bucket / f"ion/AWSDynamoDB/{export_id}/manifest-summary.json").read_text())
    assert summary["outputFormat"] == "ION"
    target = unique_name("iondst")
    started = ddb.import_table(
        S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": f"ion/AWSDynamoDB/{export_id}/data/"},
        InputFormat="ION", InputCompressionType="GZIP",
        TableCreationParameters={"TableName": target, **GSI_PARAMS})["ImportTableDescription"]
    done = wait_import(ddb, started["ImportArn"])
    assert done["ImportStatus"] == "COMPLETED", done
    assert (done["ImportedItemCount"], done["ErrorCount"], done["InputFormat"]) == (60, 0, "ION")
    assert all_items(ddb, target) == all_items(ddb, source)
    assert all_items(ddb, target, "byG") == all_items(ddb, source, "byG")


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def test_csv_import(s3):
    server, ddb, bucket = s3
    # A header row, quotes, an empty column (left out), a bad key (an error).
    write(bucket / "csv/a.csv", b'pk,sk,name,note\n'
          b'a,1,Ann,"says ""hi"", twice"\n'
          b'b,2,Bob,\n'
          b'c,not-a-number,Cid,x\n'
          b'd,4,"multi\nline",y\n')
    write(bucket / "csv/b.csv", b'pk,sk,name\n')  # only a header
    target = unique_name("csv")
    d = wait_import(ddb, ddb.import_table(
        S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "csv/"}, InputFormat="CSV",
        TableCreationParameters={"TableName": target, **GSI_PARAMS})[
            "ImportTableDescription"]["ImportArn"])
    # A refused record fails the import (DynamoDB's ItemValidationError); the
    # valid ones are in the table all the same.
    assert (d["ImportStatus"], d["FailureCode"]) == ("FAILED", "ItemValidationError"), d
    assert (d["ProcessedItemCount"], d["ImportedItemCount"], d["ErrorCount"]) == (4, 3, 1)
    items = {i["pk"]["S"]: i for i in all_items(ddb, target)}
    assert items["a"] == {"pk": {"S": "a"}, "sk": {"N": "1"}, "name": {"S": "Ann"},
                          "note": {"S": 'says "hi", twice'}}
    assert "note" not in items["b"]
    assert items["d"]["name"] == {"S": "multi\nline"}

    # HeaderList and Delimiter; gzip.
    write(bucket / "tsv/1.tsv.gz", gzip.compress(b"x\t7\tfirst\ny\t8\tsecond\n"))
    target2 = unique_name("tsv")
    d = wait_import(ddb, ddb.import_table(
        S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "tsv/"}, InputFormat="CSV",
        InputCompressionType="GZIP",
        InputFormatOptions={"Csv": {"Delimiter": "\t", "HeaderList": ["pk", "sk", "name"]}},
        TableCreationParameters={"TableName": target2, **GSI_PARAMS})[
            "ImportTableDescription"]["ImportArn"])
    assert d["ImportStatus"] == "COMPLETED" and d["ImportedItemCount"] == 2, d
    assert d["InputFormatOptions"]["Csv"]["Delimiter"] == "\t"
    assert [i["name"]["S"] for i in all_items(ddb, target2)] == ["first", "second"]


def test_import_errors(s3):
    server, ddb, bucket = s3
    existing = unique_name("imp")
    create_gsi_table(ddb, existing)
    write(bucket / "j/1.json", b'{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}\n'
          b'not json\n'
          b'{"Item":{"pk":{"N":"1"},"sk":{"N":"1"}}}\n'
          b'{"Item":{"pk":{"S":"b"},"sk":{"N":"2"},"g":{"N":"5"}}}\n'
          b'{"NoItem":{}}\n'
          b'{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"S":"last wins"}}}\n')
    code, msg = error_of(ddb.import_table, S3BucketSource={"S3Bucket": "bucket"},
                         InputFormat="DYNAMODB_JSON",
                         TableCreationParameters={"TableName": existing, **GSI_PARAMS})
    assert code == "ResourceInUseException", msg
    code, _ = error_of(ddb.import_table, S3BucketSource={"S3Bucket": "bucket"},
                       InputFormat="DYNAMODB_JSON",
                       TableCreationParameters={"TableName": unique_name("imp"),
                                                "AttributeDefinitions": [],
                                                "KeySchema": GSI_PARAMS["KeySchema"],
                                                "BillingMode": "PAY_PER_REQUEST"})
    assert code == "ValidationException"
    code, _ = error_of(ddb.describe_import,
                       ImportArn=f"arn:aws:dynamodb:us-east-1:{ACCOUNT}:table/x/import/"
                                 "01234567890123-abcdef01")
    assert code == "ImportNotFoundException"
    # Records that are not items are counted and left out; the last item of
    # a key wins.
    target = unique_name("imp")
    params = {"S3BucketSource": {"S3Bucket": "bucket", "S3KeyPrefix": "j/"},
              "InputFormat": "DYNAMODB_JSON",
              "TableCreationParameters": {"TableName": target, **GSI_PARAMS},
              "ClientToken": "imp-token-" + target}
    started = ddb.import_table(**params)["ImportTableDescription"]
    again = ddb.import_table(**params)["ImportTableDescription"]
    assert again["ImportArn"] == started["ImportArn"]
    code, _ = error_of(ddb.import_table, **{**params, "InputCompressionType": "GZIP"})
    assert code == "ImportConflictException"
    d = wait_import(ddb, started["ImportArn"])
    assert (d["ImportStatus"], d["FailureCode"]) == ("FAILED", "ItemValidationError"), d
    assert (d["ProcessedItemCount"], d["ImportedItemCount"], d["ErrorCount"]) == (6, 1, 4)
    assert all_items(ddb, target) == [
        {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "last wins"}}]
    # A prefix with no objects completes with an empty table, as DynamoDB's.
    empty = unique_name("imp")
    d = wait_import(ddb, ddb.import_table(
        S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "none/"},
        InputFormat="DYNAMODB_JSON",
        TableCreationParameters={"TableName": empty, **GSI_PARAMS})[
            "ImportTableDescription"]["ImportArn"])
    assert (d["ImportStatus"], d["ImportedItemCount"]) == ("COMPLETED", 0), d
    ddb.get_waiter("table_exists").wait(TableName=empty, WaiterConfig=WAIT)
    assert all_items(ddb, empty) == []
    # A missing bucket, a file that is not GZIP.
    for source, compression, code in [({"S3Bucket": "nobucket"}, "NONE", "S3NoSuchBucket"),
                                      ({"S3Bucket": "bucket", "S3KeyPrefix": "j/"}, "GZIP",
                                       "InvalidInput")]:
        name = unique_name("imp")
        d = wait_import(ddb, ddb.import_table(
            S3BucketSource=source, InputFormat="DYNAMODB_JSON", InputCompressionType=compression,
            TableCreationParameters={"TableName": name, **GSI_PARAMS})[
                "ImportTableDescription"]["ImportArn"])
        assert d["ImportStatus"] == "FAILED" and d["FailureCode"] == code, d
        assert name not in ddb.list_tables()["TableNames"]


def test_import_survives_restart(start_server, tmp_path):
    root = tmp_path / "s3"
    bucket = root / "bucket"
    lines = b"".join(json.dumps({"Item": {"pk": {"S": f"k{i}"}, "sk": {"N": str(i)}}}).encode()
                     + b"\n" for i in range(20000))
    write(bucket / "big/data.json", lines)
    args = ("--db-path", str(tmp_path / "db"), "--s3-dir", str(root))
    server = start_server(*args)
    ddb = server.client()
    target = unique_name("imp")
    arn = ddb.import_table(
        S3BucketSource={"S3Bucket": "bucket", "S3KeyPrefix": "big/"},
        InputFormat="DYNAMODB_JSON",
        TableCreationParameters={"TableName": target, **GSI_PARAMS})[
            "ImportTableDescription"]["ImportArn"]
    server.stop()
    assert server.returncode == 0
    server = start_server(*args)
    ddb = server.client()
    d = ddb.describe_import(ImportArn=arn)["ImportTableDescription"]
    assert d["ImportStatus"] in ("IN_PROGRESS", "COMPLETED")
    d = wait_import(ddb, arn)
    assert d["ImportStatus"] == "COMPLETED" and d["ImportedItemCount"] == 20000, d
    ddb.get_waiter("table_exists").wait(TableName=target, WaiterConfig=WAIT)
    assert ddb.describe_table(TableName=target)["Table"]["ItemCount"] == 20000
