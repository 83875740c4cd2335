#!/usr/bin/env python3
"""bench/scale/report.py: the figures of one bench/scale/run.sh invocation.

    report.py OUT N [N...]

Reads OUT/N/result.txt, samples.csv and rocksdb.LOG of each N; writes
OUT/summary.md (printed too): the figures of each N beside the first N's,
the ratios, each of issue 45's goals met or not; and OUT/plot-N.svg,
requests/s and p99 of every second of the run.
"""
import collections
import csv
import json
import os
import re
import sys

PHASES = ["get", "put", "query", "gsiquery"]
LABEL = {"get": "GetItem", "put": "PutItem", "query": "Query", "gsiquery": "Query GSI2",
         "load": "load (bulk put or import)", "batch": "BatchWriteItem", "recover": "GetItem after restart",
         "put-gsi-wait": "GSI catch-up", "restart": "restart"}
COLORS = {"get": "#1f77b4", "put": "#d62728", "query": "#2ca02c", "gsiquery": "#9467bd",
          "batch": "#ff7f0e", "recover": "#17becf", "put-gsi-wait": "#8c564b", "load": "#7f7f7f"}


def result(out, n):
    r = {}
    with open(os.path.join(out, str(n), "result.txt")) as f:
        for line in f:
            k, _, v = line.strip().partition("=")
            try:
                r[k] = float(v)
            except ValueError:
                r[k] = v
    return r


def samples(out, n):
    path = os.path.join(out, str(n), "samples.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def rocks_log(out, n):
    """(write stalls logged, bytes flushed, bytes written by compactions, bytes ingested)."""
    path = os.path.join(out, str(n), "rocksdb.LOG")
    stalls = flushed = compacted = ingested = 0
    if not os.path.exists(path):
        return stalls, flushed, compacted, ingested
    flush_jobs, files = set(), []
    for line in open(path, errors="replace"):
        if "RocksDB version:" in line:  # a new LOG: job ids start again
            flush_jobs, files = set(), []
        if "Stalling writes" in line or "Stopping writes" in line:
            stalls += 1
        i = line.find("EVENT_LOG_v1 ")
        if i < 0:
            continue
        try:
            e = json.loads(line[i + len("EVENT_LOG_v1 "):])
        except ValueError:
            continue
        ev = e.get("event")
        if ev == "flush_started":
            flush_jobs.add(e.get("job"))
        elif ev == "table_file_creation":
            if e.get("job") in flush_jobs:
                flushed += e.get("file_size", 0)
            else:
                compacted += e.get("file_size", 0)
        elif ev == "ingest_finished":
            ingested += 0  # sizes are not in the event; DescribeTable's are reported
    return stalls, flushed, compacted, ingested


# The operation each phase measures.
PHASE_OP = {"get": "GetItem", "put": "PutItem", "query": "Query", "gsiquery": "Query",
            "recover": "GetItem", "batch": "BatchWriteItem"}


def phase_seconds(rows, phase):
    """Per second of a phase: (t, requests of the phase's operation, p99_ms)."""
    op = PHASE_OP.get(phase)
    per = collections.OrderedDict()
    for r in rows:
        if r["phase"] != phase:
            continue
        t = int(r["t"])
        per.setdefault(t, (0, ""))
        if r["operation"] == op:
            per[t] = (int(r["requests"]), r["p99_ms"])
    items = list(per.items())
    return [(t, n, p) for t, (n, p) in items]


def svg_plot(out, n, rows):
    if not rows:
        return
    # From the first plotted second: the bulk load runs inside the server
    # and completes no request of its own.
    shown = [r for r in rows if r["phase"] in COLORS and r["operation"] == PHASE_OP.get(r["phase"])]
    if not shown:
        return
    t0 = min(int(r["t"]) for r in shown)
    t1 = max(int(r["t"]) for r in shown)
    w, h, left, top, ph = 900, 560, 70, 30, 200
    span = max(1, t1 - t0)
    series = collections.defaultdict(list)
    for r in rows:
        if r["phase"] not in COLORS or r["operation"] != PHASE_OP.get(r["phase"]):
            continue
        series[r["phase"]].append((int(r["t"]) - t0, int(r["requests"]), r["p99_ms"]))
    ymax = max([p[1] for s in series.values() for p in s] + [1])
    x = lambda s: left + (w - left - 20) * s / span
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="18" font-size="13">bench/scale/run.sh: %d items, requests/s and p99 (server, from /metrics) per second</text>' % (left, n)]
    # Panel 1: requests/s.
    y1 = lambda v: top + ph - ph * v / ymax
    svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top + ph, w - 20, top + ph))
    svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top, left, top + ph))
    svg.append('<text x="5" y="%d">%d/s</text>' % (top + 10, ymax))
    svg.append('<text x="5" y="%d">0</text>' % (top + ph))
    # Panel 2: p99, log scale 0.1 ms .. 1000 ms.
    top2 = top + ph + 50
    import math
    y2 = lambda ms: top2 + ph - ph * (math.log10(max(ms, 0.1)) + 1) / 4
    svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top2 + ph, w - 20, top2 + ph))
    svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (left, top2, left, top2 + ph))
    for ms in (0.1, 1, 10, 100, 1000):
        svg.append('<text x="5" y="%d">%g ms</text>' % (y2(ms) + 4, ms))
        svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ddd"/>' % (left, y2(ms), w - 20, y2(ms)))
    svg.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="red" stroke-dasharray="4"/>' % (left, y2(50), w - 20, y2(50)))
    svg.append('<text x="%d" y="%d" fill="red">50 ms</text>' % (w - 60, y2(50) - 3))
    legend = 0
    for phase, pts in series.items():
        c = COLORS[phase]
        svg.append('<polyline fill="none" stroke="%s" points="%s"/>' % (c, " ".join("%.1f,%.1f" % (x(s), y1(v)) for s, v, _ in pts)))
        p = [(s, float(q)) for s, _, q in pts if q not in ("", "inf")]
        if p:
            svg.append('<polyline fill="none" stroke="%s" points="%s"/>' % (c, " ".join("%.1f,%.1f" % (x(s), y2(v)) for s, v in p)))
        svg.append('<text x="%d" y="%d" fill="%s">%s</text>' % (left + 10 + 150 * (legend % 5), h - 40 + 14 * (legend // 5), c, LABEL.get(phase, phase)))
        legend += 1
    svg.append('<text x="%d" y="%d">seconds since the BatchWriteItem load began (%d s; no sample while the server did not answer /metrics)</text>' % (left, top2 + ph + 18, span))
    svg.append("</svg>")
    with open(os.path.join(out, "plot-%d.svg" % n), "w") as f:
        f.write("\n".join(svg) + "\n")


def main():
    out, ns = sys.argv[1], [int(a) for a in sys.argv[2:]]
    res = {n: result(out, n) for n in ns}
    rows = {n: samples(out, n) for n in ns}
    logs = {n: rocks_log(out, n) for n in ns}
    base = ns[0]
    lines = []
    p = lines.append
    head = "| figure | " + " | ".join("%d items" % n for n in ns) + " | " + \
        " | ".join("%d / %d" % (n, base) for n in ns[1:]) + " |"
    p(head)
    p("|" + "---|" * (1 + len(ns) + len(ns) - 1))

    def row(name, key, fmt="%.0f", ratio=True, fn=None):
        vals = [fn(n) if fn else res[n].get(key) for n in ns]
        cells = [(fmt % v) if isinstance(v, (int, float)) else str(v) for v in vals]
        rs = []
        for v in vals[1:]:
            if ratio and isinstance(v, (int, float)) and isinstance(vals[0], (int, float)) and vals[0]:
                rs.append("%.2f" % (v / vals[0]))
            else:
                rs.append("")
        p("| %s | %s | %s |" % (name, " | ".join(cells), " | ".join(rs)))
    zero = {}
    worst_p99 = {}
    for n in ns:
        z, worst = 0, 0.0
        for ph in PHASES + ["recover"]:
            secs = phase_seconds(rows[n], ph)[1:-1]  # the partial first and last seconds aside
            z += sum(1 for _, c, _ in secs if c == 0)
            for _, _, q in secs:
                if q == "inf":
                    worst = float("inf")
                elif q:
                    worst = max(worst, float(q))
        zero[n], worst_p99[n] = z, worst

    def recover_s(n):
        before = sorted(c for _, c, _ in phase_seconds(rows[n], "get")[1:-1])
        after = phase_seconds(rows[n], "recover")
        if not before or not after:
            return "n/a"
        target = 0.9 * before[len(before) // 2]
        for k, (_, c, _) in enumerate(after):
            if c >= target:
                return float(k)
        return "not in %d s" % len(after)

    row("load items/s (%s, GSIs caught up)" % "/".join(sorted({str(res[n].get("load_path", "import")) for n in ns})), "import_items_s")
    row("BatchWriteItem over HTTP, items/s (GSIs caught up)", "batch_items_s")
    for ph in PHASES:
        row("%s requests/s" % LABEL[ph], ph + "_rps")
        row("%s p99 ms (wrk)" % LABEL[ph], ph + "_p99_ms", "%.2f")
    row("load average during the phases (1 min, at each end)", None, "%s", False,
        lambda n: " ".join("%.1f" % res[n].get(ph + "_load", 0) for ph in PHASES))
    row("seconds with zero completed requests", None, "%d", False, lambda n: zero[n])
    row("worst per-second p99 ms (server, bucket bound)", None, "%g", False, lambda n: worst_p99[n])
    row("RSS MiB loaded / after phases / peak", None, "%s", False,
        lambda n: "%d / %d / %d" % (res[n].get("rss_loaded_mib", 0), res[n].get("rss_mib", 0), res[n].get("hwm_mib", 0)))
    row("raw data MiB (DescribeTable table + index sizes)", "raw_mib")
    row("disk MiB (du of the database)", "disk_mib")
    row("disk / raw", None, "%.2f", False, lambda n: res[n]["disk_mib"] / max(1, res[n]["raw_mib"]))
    row("write stalls in RocksDB's LOG", None, "%d", False, lambda n: logs[n][0])
    row("MiB flushed / compacted (LOG)", None, "%s", False,
        lambda n: "%d / %d" % (logs[n][1] >> 20, logs[n][2] >> 20))
    row("compaction write amplification ((flushed+compacted)/flushed)", None, "%.2f", False,
        lambda n: (logs[n][1] + logs[n][2]) / logs[n][1] if logs[n][1] else 0)
    row("SIGTERM to exit, s", "stop_s", "%.2f", False)
    row("restart: exec to first GetItem answered, s", "first_answer_s", "%.3f")
    row("restart: s until GetItem/s >= 0.9 of before", None, "%s", False, recover_s)

    p("")
    for n in ns[1:]:
        goals = []
        for ph in ["get", "put", "query"]:
            r = res[n][ph + "_rps"] / res[base][ph + "_rps"]
            goals.append("%s %d/%d = %.2f (>= 0.7: %s)" % (LABEL[ph], n, base, r, "met" if r >= 0.7 else "NOT MET"))
        goals.append("seconds with zero requests: %d (%s)" % (zero[n], "met" if zero[n] == 0 else "NOT MET"))
        p99 = max(res[n][ph + "_p99_ms"] for ph in PHASES)
        goals.append("p99 worst phase %.1f ms (< 50: %s)" % (p99, "met" if p99 < 50 else "NOT MET"))
        fa = res[n]["first_answer_s"]
        goals.append("restart to first answer %.3f s (< 2: %s)" % (fa, "met" if fa < 2 else "NOT MET"))
        d = res[n]["disk_mib"] / max(1, res[n]["raw_mib"])
        goals.append("disk / raw %.2f (<= 1.5: %s)" % (d, "met" if d <= 1.5 else "NOT MET"))
        goals.append("RSS after phases %d MiB vs %d MiB at %d items" % (res[n]["rss_mib"], res[base]["rss_mib"], base))
        p("Goals at %d items: " % n + "; ".join(goals))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text)
    print(text, end="")
    for n in ns:
        svg_plot(out, n, rows[n])


if __name__ == "__main__":
    main()
