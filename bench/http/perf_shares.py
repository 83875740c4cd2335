#!/usr/bin/env python3
"""bench/http/perf_shares.py: the share of a profile's samples in which each
named function is on the stack (its inclusive share, callees counted), from
the text of `perf script` of a profile recorded with call graphs, as
profile_server.sh records them.

    perf script -i /tmp/dynarock-put.perf | bench/http/perf_shares.py \\
        Store::Get Store::Write WriteToWAL MemTable::Add Session::Respond

A pattern matches a frame that contains it; each sample counts once per
pattern, however many of its frames match. "A&B" counts the samples with
both on the stack: "Propagator::Run&MemTable::Add" is the propagator
thread's memtable inserts. bench/README.md's breakdowns of
the server's CPU (issue 18, seventh pass) were counted this way.
"""
import sys


def main(patterns):
    samples = 0
    hits = [0] * len(patterns)
    frames = []

    def end_sample():
        nonlocal samples
        if not frames:
            return
        samples += 1
        for i, pattern in enumerate(patterns):
            # "A&B": samples with both A and B on the stack (a function
            # under a thread's entry point, say).
            if all(any(part in frame for frame in frames)
                   for part in pattern.split("&")):
                hits[i] += 1
        frames.clear()

    for line in sys.stdin:
        if not line.strip():
            end_sample()
        elif line[0] in " \t":
            frames.append(line.strip())
        else:  # a sample's header line: its frames follow
            end_sample()
    end_sample()
    print(f"{samples} samples")
    for pattern, n in zip(patterns, hits):
        print(f"{100.0 * n / max(samples, 1):6.2f} %  {pattern}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: perf script -i PERF_DATA | perf_shares.py FUNCTION...")
    main(sys.argv[1:])
