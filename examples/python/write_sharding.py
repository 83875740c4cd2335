#!/usr/bin/env python3
"""The seed's GSI2 write-sharding experiment, written as a simulator author
would: SimPy drives time, dynarock (in process, on a simulated clock,
throttling on) supplies DynamoDB's physics through its boto3-shaped client.

The question (seeds 000/003, access pattern 5): every OPEN order is read
through GSI2 at a required rate; how many shards N does GSI2 need? The
seed's formula says 13; `dynarock simulate write-sharding` (docs/simulate.md)
runs the same workload in C++. This program takes the same inputs (the
orders and their dates, OPEN flags and shard numbers are the same
deterministic functions of --seed) and prints the same table and conclusion:
the achieved rate per variant and N, and the smallest random N that reaches
99 % of the rate.

    examples/python/write_sharding.py                 # the full default run (3M orders)
    examples/python/write_sharding.py --short         # a CI-sized run (seconds)
    examples/python/write_sharding.py --plot rate.png # with matplotlib, if installed

Compare: build/dynarock simulate write-sharding [--orders ... --duration ... --shards ...]

The model (docs/simulate.md, "write-sharding", sustained): one worker per
shard key reads its shard's 1 MB pages (Select COUNT) over and over, paced to
its share of --rate; a request takes 2 ms + 10 us per KB read; a throttled
page waits an exponential backoff with full jitter (50 ms base, 20 s cap)
and is retried; a worker more than 1 s behind drops the backlog. Every page
is issued at the SimPy time its worker reaches, and the engine's clock is
set to that time before the call, so the token buckets decide at the same
instant the simulation lives in.
"""

import argparse
import datetime
import os
import random
import sys
import time

import dynarock

MASK = (1 << 64) - 1
START = 1_700_000_000.0  # the engine clock's epoch seconds at simulated t = 0
THROTTLES = {"ProvisionedThroughputExceededException", "ThrottlingException",
             "RequestLimitExceeded"}


# --- the same orders as tools/simulate/write_sharding.cc -------------------

def mix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for c in data:
        h = ((h ^ c) * 0x100000001B3) & MASK
    return h


def order_facts(seed, order_id, open_fraction, days):
    r = mix64(seed ^ ((order_id * 0x9E37 + 1) & MASK))
    is_open = (r >> 11) * 2.0 ** -53 < open_fraction
    day = mix64(r) % days
    customer = mix64((r + 7) & MASK) % 100_000
    return is_open, day, customer


def date_of(day):
    return (datetime.date(2024, 1, 1) + datetime.timedelta(days=day)).isoformat()


def item_size(item):
    # DynamoDB's size of an item of strings: names plus UTF-8 values.
    return sum(len(k.encode()) + len(v["S"].encode()) for k, v in item.items())


def order_item(order_id, is_open, day, customer, size):
    status = "OPEN" if is_open else "CLOSED"
    date = date_of(day)
    item = {"PK": {"S": f"O#{order_id:08d}"}, "SK": {"S": f"C#{customer:06d}"},
            "Status": {"S": status}, "OrderDate": {"S": date},
            "GSI2SK": {"S": f"{status}#{date}"}, "Detail": {"S": ""}}
    pad = size - item_size(item)
    if pad > 0:
        item["Detail"] = {"S": "x" * pad}
    return item


class Index:
    def __init__(self, kind, shards):
        self.kind, self.shards = kind, shards
        if kind == "unsharded":
            self.name, self.key = "GSI2_unsharded", "Status"
        elif kind == "random":
            self.name, self.key = f"GSI2_rand_{shards}", f"R{shards}"
        else:
            self.name, self.key = f"GSI2_hash_{shards}", f"H{shards}"

    def shard_of(self, seed, order_id, order_key):
        n = self.shards
        if self.kind == "random":
            return mix64((seed * 31 + order_id * 1_000_003 + n) & MASK) % n
        return fnv1a64(order_key.encode()) % n

    def definition(self):
        if self.kind == "unsharded":
            keys, extra = [("Status", "HASH"), ("OrderDate", "RANGE")], ["Detail", "GSI2SK"]
        else:
            keys, extra = [(self.key, "HASH"), ("GSI2SK", "RANGE")], ["Detail", "Status",
                                                                        "OrderDate"]
        return {"IndexName": self.name,
                "KeySchema": [{"AttributeName": a, "KeyType": t} for a, t in keys],
                "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": extra}}

    def attribute_definitions(self):
        if self.kind == "unsharded":
            return [{"AttributeName": "Status", "AttributeType": "S"},
                    {"AttributeName": "OrderDate", "AttributeType": "S"}]
        return [{"AttributeName": self.key, "AttributeType": "N"},
                {"AttributeName": "GSI2SK", "AttributeType": "S"}]


def plan_indexes(args):
    indexes = [Index("unsharded", 1)]
    for n in sorted(set(args.shards) | set(args.hash_shards)):
        if n in args.shards:
            indexes.append(Index("random", n))
        if n in args.hash_shards:
            indexes.append(Index("hash", n))
    return indexes


# --- SimPy, version 2 (Debian's python3-simpy) or 3+ ------------------------

class Sim:
    """The few SimPy calls used here, over whichever SimPy is installed:
    `process(generator)` where the generator yields delays (micros), `run`."""

    def __init__(self):
        try:
            import simpy  # SimPy 3 and later
            self._env = simpy.Environment()
            self._v2 = None
        except ImportError:
            from SimPy import Simulation as v2  # SimPy 2 (Debian bookworm)
            self._v2 = v2
            self._env = v2.Simulation()
            self._env.initialize()

    def now(self):
        return self._env.now if self._v2 is None else self._env.now()

    def process(self, gen):
        if self._v2 is None:
            env = self._env

            def wrap():
                for delay in gen:
                    yield env.timeout(delay)
            env.process(wrap())
        else:
            v2 = self._v2

            class P(v2.Process):
                def run(self):
                    for delay in gen:
                        yield v2.hold, self, delay
            p = P(sim=self._env)
            self._env.activate(p, p.run())

    def run(self, until):
        if self._v2 is None:
            self._env.run(until=until)
        else:
            self._env.simulate(until=until)


# --- the experiment ---------------------------------------------------------

def load(eng, ddb, args, indexes):
    """The OPEN orders, BatchWriteItem in 25s paced at --load-rate orders per
    simulated second with throttling off; then each GSI by UpdateTable,
    backfilled, one at a time (as the C++ simulation does)."""
    ddb.create_table(TableName="Orders", BillingMode="PAY_PER_REQUEST",
                     KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                                {"AttributeName": "SK", "KeyType": "RANGE"}],
                     AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"},
                                           {"AttributeName": "SK", "AttributeType": "S"}])
    eng.set_throttling(False)
    batch, loaded = [], 0

    def flush():
        pending = {"Orders": batch[:]}
        while pending:
            pending = ddb.batch_write_item(RequestItems=pending)["UnprocessedItems"]
        eng.clock.advance(len(batch) / args.load_rate)
        batch.clear()

    sharded = [i for i in indexes if i.kind != "unsharded"]
    for order_id in range(args.orders):
        is_open, day, customer = order_facts(args.seed, order_id, args.open_fraction, args.days)
        if not is_open:
            continue
        item = order_item(order_id, is_open, day, customer, args.order_bytes)
        for index in sharded:
            item[index.key] = {"N": str(index.shard_of(args.seed, order_id, item["PK"]["S"]))}
        batch.append({"PutRequest": {"Item": item}})
        loaded += 1
        if len(batch) == 25:
            flush()
    if batch:
        flush()
    for index in indexes:
        ddb.update_table(TableName="Orders",
                         AttributeDefinitions=index.attribute_definitions(),
                         GlobalSecondaryIndexUpdates=[{"Create": index.definition()}])
        eng.wait_for_indexes()
        eng.clock.advance(1)
    return loaded


def gsi_partitions(eng, index):
    cap = eng.describe_capacity(TableName="Orders")
    for gsi in cap.get("GlobalSecondaryIndexes", []):
        if gsi.get("IndexName") == index.name:
            return len(gsi.get("Partitions", []))
    return 0


def read_sustained(eng, ddb, args, index, rng):
    """One worker per shard key, as in docs/simulate.md; returns the row."""
    sim = Sim()
    t0 = eng.clock.now_micros()  # simulated t = 0 in engine micros
    n = index.shards
    micros_per_item = 1e6 * n / args.rate
    end = args.duration * 1_000_000
    per_second = [0] * args.duration
    stats = {"requests": 0, "throttled": 0, "items": 0, "max_tries": 1}
    lo, hi = date_of(0), date_of(args.days - 1)
    if index.kind == "unsharded":
        condition, names = "#p = :p AND #s BETWEEN :a AND :b", {"#p": "Status", "#s": "OrderDate"}
        values = [{":p": {"S": "OPEN"}, ":a": {"S": lo}, ":b": {"S": hi}}]
    else:
        condition, names = "#p = :p AND #s BETWEEN :a AND :b", {"#p": index.key, "#s": "GSI2SK"}
        values = [{":p": {"N": str(k)}, ":a": {"S": "OPEN#" + lo}, ":b": {"S": "OPEN#" + hi}}
                  for k in range(n)]
    partitions_start = gsi_partitions(eng, index)

    def worker(w):
        start_key, attempt, due = None, 0, 0.0
        while True:
            now = sim.now()
            # The engine's clock follows SimPy's: the buckets decide now.
            target = t0 + int(now)
            if target > eng.clock.now_micros():
                eng.clock.advance_micros(target - eng.clock.now_micros())
            params = dict(TableName="Orders", IndexName=index.name, Select="COUNT",
                          KeyConditionExpression=condition, ExpressionAttributeNames=names,
                          ExpressionAttributeValues=values[w], ReturnConsumedCapacity="TOTAL")
            if start_key:
                params["ExclusiveStartKey"] = start_key
            stats["requests"] += 1
            try:
                page = ddb.query(**params)
            except dynarock.ClientError as e:
                if e.response["Error"]["Code"] not in THROTTLES:
                    raise
                stats["throttled"] += 1
                ceiling = min(20e6, 50e3 * 2 ** attempt)
                attempt += 1
                stats["max_tries"] = max(stats["max_tries"], attempt + 1)
                nxt = now + args.service_base_us + rng.uniform(0, ceiling)
                if nxt >= end:
                    return
                yield nxt - now
                continue
            attempt = 0
            units = page["ConsumedCapacity"]["CapacityUnits"]
            done = now + args.service_base_us + args.service_us_per_kb * int(units * 8)
            if done < end:
                stats["items"] += page["ScannedCount"]
                per_second[int(done // 1_000_000)] += page["ScannedCount"]
            start_key = page.get("LastEvaluatedKey")
            due = max(due + page["ScannedCount"] * micros_per_item, done - 1_000_000)
            nxt = max(done, due)
            if nxt >= end:
                return
            yield nxt - now

    for w in range(n):
        sim.process(worker(w))
    sim.run(until=end)
    eng.clock.advance_micros(max(0, t0 + end - eng.clock.now_micros()))
    mean = stats["items"] / args.duration
    return {"variant": index.kind, "N": n, "items_s": round(mean),
            "of_rate": mean / args.rate, "min_items_s": min(per_second),
            "requests": stats["requests"], "throttled": stats["throttled"],
            "partitions": f"{partitions_start}->{gsi_partitions(eng, index)}",
            "max_tries": stats["max_tries"], "series": per_second}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--orders", type=int, default=3_000_000)
    p.add_argument("--open-fraction", type=float, default=0.2)
    p.add_argument("--order-bytes", type=int, default=100)
    p.add_argument("--days", type=int, default=365)
    p.add_argument("--shards", type=lambda s: [int(x) for x in s.split(",")],
                   default=[2, 4, 8, 13, 16], help="random-suffix N list (default 2,4,8,13,16)")
    p.add_argument("--hash-shards", type=lambda s: [int(x) for x in s.split(",") if x],
                   default=[13], help="hash-suffix N list (default 13)")
    p.add_argument("--rate", type=int, default=600_000, help="required items/s")
    p.add_argument("--duration", type=int, default=60, help="simulated seconds per variant")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--load-rate", type=int, default=1_500, help="orders per simulated second")
    p.add_argument("--service-base-us", type=int, default=2_000)
    p.add_argument("--service-us-per-kb", type=int, default=10)
    p.add_argument("--short", action="store_true",
                   help="CI size: --orders 200000 --duration 10 --shards 2,4,13 --hash-shards ''")
    p.add_argument("--plot", help="write the achieved rate over time to this image "
                                  "(needs matplotlib)")
    args = p.parse_args(argv)
    if args.short:
        args.orders, args.duration, args.shards, args.hash_shards = 200_000, 10, [2, 4, 13], []

    wall = time.monotonic()
    rng = random.Random(args.seed)
    indexes = plan_indexes(args)
    with dynarock.Engine(clock="simulated", start=START, throttling=True,
                         memtable_bytes=16 << 20) as eng:
        ddb = eng.client()
        loaded = load(eng, ddb, args, indexes)
        load_wall = time.monotonic() - wall
        eng.clock.advance(3600)  # an idle hour: buckets full, the load's peak forgotten
        eng.set_throttling(True)
        rows = []
        for index in indexes:
            eng.clock.advance(600)  # ten idle minutes before each read
            rows.append(read_sustained(eng, ddb, args, index, rng))
    total_wall = time.monotonic() - wall

    print(f"write-sharding (sustained) in Python + SimPy on dynarock's engine: "
          f"{args.orders} orders ({loaded} OPEN loaded), rate {args.rate} items/s, "
          f"{args.duration} s per variant, on-demand")
    header = ("variant", "N", "items_s", "of_rate", "min_items_s", "requests",
              "throttled", "partitions", "max_tries")
    print("  ".join(f"{h:>11}" for h in header))
    for r in rows:
        print("  ".join(f"{v:>11}" for v in (
            r["variant"], r["N"], r["items_s"], f"{100 * r['of_rate']:.1f}%",
            r["min_items_s"], r["requests"], r["throttled"], r["partitions"],
            r["max_tries"])))
    random_rows = [r for r in rows if r["variant"] == "random"]
    reached = [r["N"] for r in random_rows if r["of_rate"] >= 0.99]
    ns = ",".join(str(r["N"]) for r in random_rows)
    print(f"simulated N (random, of N = {ns}): "
          f"{min(reached) if reached else 'none'} "
          "(the smallest N reaching 99 % of the required rate)")
    print(f"wall: {total_wall:.1f} s (load {load_wall:.1f} s)")
    if args.plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("--plot: matplotlib is not installed (apt-get install python3-matplotlib); "
                  "no plot", file=sys.stderr)
        else:
            for r in rows:
                plt.plot(range(args.duration), [x / 1000 for x in r["series"]],
                         label=f"{r['variant']} {r['N']}")
            plt.axhline(args.rate / 1000, linestyle=":", color="grey")
            plt.xlabel("simulated second")
            plt.ylabel("items/s achieved (thousands)")
            plt.legend()
            plt.savefig(args.plot)
            print(f"plot: {os.path.abspath(args.plot)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
