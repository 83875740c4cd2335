#!/usr/bin/env python3
"""bench/scale/gen_export.py: writes N Order items of about 1 KB as
uncompressed DynamoDB JSON (the format of an export's data files, one
{"Item": ...} per line), the input of ImportTable / StartBulkPutItems.

    gen_export.py N DIR [FILES]

The items are bench/http/order_items.lua's (same keys, same attributes, 250
bytes by DynamoDB's item-size rules) with BENCH_PER_CUSTOMER items per
partition key (default 10), plus a Pad attribute of PAD_BYTES (default 771:
1,024 bytes an item) of pseudo-random letters, so that block compression
does not shrink the data below what a real table's would. scale_items.lua
builds the same items for wrk. FILES (default 4) files DIR/part-K.json.
"""
import os
import random
import sys

PER_CUSTOMER = int(os.environ.get("BENCH_PER_CUSTOMER", "10"))
PAD_BYTES = int(os.environ.get("PAD_BYTES", "771"))
STATUSES = ["OPEN_____", "SHIPPED__", "DELIVERED", "CANCELLED"]
REPS = 500
# The pad source: as scale_items.lua's, 65,536 letters from a fixed seed;
# item i's pad is a slice at an offset of its own.
_rng = random.Random(45)
PAD_SOURCE = "".join(_rng.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                     for _ in range(65536))


def pad_of(i):
    off = (i * 7919) % (len(PAD_SOURCE) - PAD_BYTES)
    return PAD_SOURCE[off:off + PAD_BYTES]


def item_line(i):
    month, day = i % 12 + 1, i % 28 + 1
    pk = "CUST#%08d" % (i // PER_CUSTOMER)
    sk = "ORDER#2026-%02d-%02d#%08d" % (month, day, i)
    order_date = "2026-%02d-%02dT%02d:%02d:%02dZ" % (month, day, i % 24, i % 60, (i // 60) % 60)
    amount = "%d.%02d" % (1000 + i % 9000, 10 * (i % 10) + 1 + i % 9)
    ship_to = ("%05d Warehouse Road, Springfield, IL 627%02d, USA, Dock %03d"
               % (i % 100000, i % 100, i % 1000)).ljust(64)
    return ('{"Item":{"PK":{"S":"%s"},"SK":{"S":"%s"},"OrderDate":{"S":"%s"},'
            '"Amount":{"N":"%s"},"Quantity":{"N":"%d"},"Rep":{"S":"REP#%04d"},'
            '"Status":{"S":"%s"},"ShipTo":{"S":"%s"},"Note":{"S":"%s"},"Pad":{"S":"%s"}}}\n'
            % (pk, sk, order_date, amount, 1 + i % 9, i % REPS, STATUSES[i % 4],
               ship_to, "n" * 59, pad_of(i)))


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    files = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    os.makedirs(out, exist_ok=True)
    per = (n + files - 1) // files
    for f in range(files):
        lo, hi = f * per, min(n, (f + 1) * per)
        with open(os.path.join(out, "part-%d.json" % f), "w", buffering=1 << 22) as w:
            for start in range(lo, hi, 10000):
                w.write("".join(item_line(i) for i in range(start, min(hi, start + 10000))))


if __name__ == "__main__":
    main()
