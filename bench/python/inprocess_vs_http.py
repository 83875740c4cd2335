#!/usr/bin/env python3
"""put_item / get_item per second from one Python thread: dynarock in process
(Engine.client(), and the boto3 bridge Engine.boto3_client()) against boto3
over HTTP to `dynarock serve --in-memory` on the same machine, and against
moto's in-process mock when moto is installed. One run, the same items for
every client; the ratios printed are of this run.

    bench/python/inprocess_vs_http.py [--ops 20000] [--dynarock-bin build/dynarock]

Throttling is off on both sides (serve --throttling off), so the figures are
the request path's cost, not the table's capacity. The items are small
(a 10-byte key and a 100-byte string), the loop does nothing else.
"""

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import boto3
from botocore.config import Config

import dynarock

REPO = Path(__file__).resolve().parents[2]


def make_table(ddb, name):
    ddb.create_table(TableName=name, BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}],
                     AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}])
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.05, "MaxAttempts": 200})


def measure(ddb, name, ops):
    payload = "v" * 100
    keys = [f"key{i:07d}" for i in range(ops)]
    t = time.perf_counter()
    for k in keys:
        ddb.put_item(TableName=name, Item={"pk": {"S": k}, "v": {"S": payload}})
    put = ops / (time.perf_counter() - t)
    t = time.perf_counter()
    for k in keys:
        item = ddb.get_item(TableName=name, Key={"pk": {"S": k}})["Item"]
    get = ops / (time.perf_counter() - t)
    assert item["v"]["S"] == payload
    return put, get


def start_server(binary):
    proc = subprocess.Popen([binary, "serve", "--in-memory", "--port", "0",
                             "--throttling", "off"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    m = re.match(r"dynarock listening on (http://\S+)", line)
    if not m:
        proc.kill()
        sys.exit(f"dynarock serve did not start: {line!r}")
    return proc, m.group(1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ops", type=int, default=20_000)
    p.add_argument("--dynarock-bin", default=os.environ.get(
        "DYNAROCK_BIN", str(REPO / "build" / "dynarock")))
    args = p.parse_args()

    rows = []
    with dynarock.Engine(throttling=False) as eng:
        ddb = eng.client()
        make_table(ddb, "bench")
        rows.append(("dynarock in process: Engine.client()",) + measure(ddb, "bench", args.ops))
        b = eng.boto3_client()
        make_table(b, "bench2")
        rows.append(("dynarock in process: Engine.boto3_client()",)
                    + measure(b, "bench2", args.ops))

    proc, url = start_server(args.dynarock_bin)
    try:
        http = boto3.client("dynamodb", endpoint_url=url, region_name="us-east-1",
                            aws_access_key_id="local", aws_secret_access_key="local",
                            config=Config(retries={"max_attempts": 1}))
        make_table(http, "bench")
        rows.append(("boto3 over HTTP to dynarock serve --in-memory",)
                    + measure(http, "bench", args.ops))
    finally:
        proc.terminate()
        proc.wait()

    try:
        import moto
    except ImportError:
        moto = None
    if moto is not None:
        mock = getattr(moto, "mock_aws", None) or moto.mock_dynamodb  # moto 5 / 4
        with mock():
            m = boto3.client("dynamodb", region_name="us-east-1",
                             aws_access_key_id="x", aws_secret_access_key="x")
            make_table(m, "bench")
            rows.append((f"moto {moto.__version__} in process (mock)",)
                        + measure(m, "bench", args.ops))

    http_put, http_get = rows[2][1], rows[2][2]
    print(f"{args.ops} put_item then {args.ops} get_item, one thread, python "
          f"{sys.version.split()[0]}, boto3 {boto3.__version__}")
    print(f"{'client':<48} {'put/s':>9} {'get/s':>9} {'put x':>7} {'get x':>7}")
    for name, put, get in rows:
        print(f"{name:<48} {put:>9.0f} {get:>9.0f} {put / http_put:>7.1f} "
              f"{get / http_get:>7.1f}")
    if moto is None:
        print("moto: not importable by this python, not measured")
    print("(x: ratio to boto3 over HTTP in this run)")


if __name__ == "__main__":
    main()
