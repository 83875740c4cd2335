#!/usr/bin/env python3
"""Measures how long `dynarock serve` takes from exec to its first answered
ListTables: start the process, wait for the listening line, send ListTables,
stop it with SIGTERM. Prints min / median / max over --runs runs, for an
in-memory database, a new on-disk one and an existing on-disk one.

  scripts/startup_time.py [--bin build/dynarock] [--runs 20]
"""

import argparse
import http.client
import re
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AUTH = ("AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/dynamodb/aws4_request, "
        "SignedHeaders=host, Signature=0")


def once(binary, args):
    start = time.perf_counter()
    proc = subprocess.Popen([binary, "serve", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r":(\d+) ", line)
        if not match:
            raise RuntimeError(f"no listening line: {line!r}")
        conn = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=10)
        conn.request("POST", "/", body=b"{}", headers={
            "Content-Type": "application/x-amz-json-1.0", "Authorization": AUTH,
            "X-Amz-Target": "DynamoDB_20120810.ListTables"})
        res = conn.getresponse()
        res.read()
        elapsed = time.perf_counter() - start
        if res.status != 200:
            raise RuntimeError(f"ListTables answered {res.status}")
        conn.close()
        return elapsed * 1000
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(REPO / "build" / "dynarock"))
    parser.add_argument("--runs", type=int, default=20)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        existing = Path(tmp) / "existing"
        once(opts.bin, ["--db-path", str(existing)])  # create it once
        fresh = iter(Path(tmp) / f"fresh-{i}" for i in range(opts.runs))
        cases = {
            "in-memory": lambda: ["--in-memory"],
            "on-disk, new database": lambda: ["--db-path", str(next(fresh))],
            "on-disk, existing database": lambda: ["--db-path", str(existing)],
        }
        for label, args in cases.items():
            times = [once(opts.bin, args()) for _ in range(opts.runs)]
            print(f"{label:27s} exec -> first ListTables answered: "
                  f"min {min(times):.1f} ms, median {statistics.median(times):.1f} ms, "
                  f"max {max(times):.1f} ms ({opts.runs} runs)")

if __name__ == "__main__":
    main()
