#!/usr/bin/env python3
"""bench/http/two_gsi_items.py: the items of bench/common/two_gsi_table.h
(FillTwoGsiTable: the table export_import_bench exports and imports) as
gzipped DynamoDB JSON Lines, the export's data-file format, for
StartBulkPutItems' input and batch_write_items.lua's twin.

    two_gsi_items.py N DIR [ITEMS_PER_FILE]

writes DIR/part-00000.json.gz, part-00001.json.gz ... (ITEMS_PER_FILE
items each, default 100,000), one record a line: {"Item": {...}}. Item i:
pk "user#" + (i % 10007), sk N i, g "g" + (i % 97), h N (i % 1013), payload
150 x the letter ('a' + i % 26). Items are in i order, so consecutive
records go to different partition keys (an export is in key order instead,
which a throttled bulk job would meet as a rolling hot partition).
Prints the bytes of JSON and of gzip.
"""
import gzip
import os
import sys


def item_line(i: int) -> str:
    payload = chr(ord("a") + i % 26) * 150
    return ('{"Item":{"pk":{"S":"user#%d"},"sk":{"N":"%d"},"g":{"S":"g%d"},'
            '"h":{"N":"%d"},"payload":{"S":"%s"}}}\n'
            % (i % 10007, i, i % 97, i % 1013, payload))


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    n, out = int(sys.argv[1]), sys.argv[2]
    per_file = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
    os.makedirs(out, exist_ok=True)
    json_bytes = 0
    for f, first in enumerate(range(0, n, per_file)):
        lines = "".join(item_line(i) for i in range(first, min(n, first + per_file)))
        json_bytes += len(lines)
        with gzip.open(os.path.join(out, "part-%05d.json.gz" % f), "wt", compresslevel=6) as z:
            z.write(lines)
    gz = sum(os.path.getsize(os.path.join(out, p)) for p in os.listdir(out))
    print(f"{n} items: {json_bytes} bytes of DynamoDB JSON, {gz} bytes gzipped")


if __name__ == "__main__":
    main()
