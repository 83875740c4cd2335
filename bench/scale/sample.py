#!/usr/bin/env python3
"""bench/scale/sample.py: once a second, what one dynarock server did in
that second, from its /metrics (docs/metrics.md) and /proc, until killed.

    sample.py PORT PID TABLE PHASE_FILE CSV

Appends to CSV one row per second and operation of TABLE that completed
requests in it, and one row (operation "-") when none did:
  t (Unix seconds), phase (PHASE_FILE's text: the driver writes the phase it
  is in), operation, requests (completed in the second: successes and
  errors), p99_ms (upper bound of the latency bucket holding the second's
  99th percentile of successful requests, from
  dynamodb_successful_request_latency_seconds: 0.25, 0.5, 1, 2.5, 5, 10, 25,
  50, 100 ... ms; server time, from request parsed to response queued),
  rss_mib (VmRSS).
"""
import re
import sys
import time
import urllib.request

port, pid, table, phase_file, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
LINE = re.compile(r'^(dynamodb_successful_request_latency_seconds_bucket|dynarock_requests_total)'
                  r'\{[^}]*table="([^"]*)",operation="([^"]*)"(?:,le="([^"]*)")?\} (\S+)$')


def scrape():
    """{op: (requests, {le: cumulative count})} of the table."""
    ops = {}
    try:
        with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=5) as r:
            text = r.read().decode()
    except OSError:
        return None
    for line in text.splitlines():
        m = LINE.match(line)
        if not m or m.group(2) != table:
            continue
        total, buckets = ops.get(m.group(3), (0, {}))
        if m.group(1) == "dynarock_requests_total":
            total = int(float(m.group(5)))
        else:
            buckets[m.group(4)] = int(float(m.group(5)))
        ops[m.group(3)] = (total, buckets)
    return ops


def rss_mib():
    try:
        with open("/proc/%s/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def p99_ms(now, before):
    les = sorted(now, key=lambda le: float("inf") if le == "+Inf" else float(le))
    n = now.get("+Inf", 0) - before.get("+Inf", 0)
    if n <= 0:
        return ""
    for le in les:
        if now[le] - before.get(le, 0) >= 0.99 * n:
            return "inf" if le == "+Inf" else "%g" % (float(le) * 1000)
    return ""


def main():
    prev = scrape() or {}
    with open(out, "a", buffering=1) as w:
        if w.tell() == 0:
            w.write("t,phase,operation,requests,p99_ms,rss_mib\n")
        next_t = time.time() + 1
        while True:
            time.sleep(max(0, next_t - time.time()))
            t = next_t
            next_t += 1
            cur = scrape()
            if cur is None:  # restarting: no sample this second
                prev = {}
                continue
            try:
                phase = open(phase_file).read().strip()
            except OSError:
                phase = ""
            rss = rss_mib()
            rows = 0
            for op, (total, buckets) in sorted(cur.items()):
                before_total, before_buckets = prev.get(op, (0, {}))
                n = total - before_total
                if n > 0:
                    w.write("%d,%s,%s,%d,%s,%d\n" % (t, phase, op, n, p99_ms(buckets, before_buckets), rss))
                    rows += 1
            if rows == 0:
                w.write("%d,%s,-,0,,%d\n" % (t, phase, rss))
            prev = cur


if __name__ == "__main__":
    main()
