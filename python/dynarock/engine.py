"""dynarock.Engine: a dynarock storage engine inside this Python process.

    eng = dynarock.Engine()                                   # in memory, real clock
    eng = dynarock.Engine(path="./data")                      # on disk, reopenable
    eng = dynarock.Engine(clock="simulated", start=1_700_000_000.0, throttling=True)
    ddb = eng.client()                                        # boto3-shaped
    eng.clock.advance(2.5)                                    # simulated seconds
    eng.describe_capacity(TableName="T")
    eng.close()                                               # or `with Engine() as eng:`

The engine is the same one `dynarock serve` runs (engine/engine.h) and calls
go through the same api::Client as HTTP requests, so capacity, throttling,
GSI lag, TTL, streams and every error message are the server's. On a
simulated clock time moves only in `clock.advance` / `clock.set`, and each
advance runs the work that became due (TTL sweeps, GSI propagation, stream
maintenance) before it returns.
"""

import json
import threading

from dynarock import _dynarock
from dynarock.client import EXTENSION_PREFIX, ClientError, make_client

_CLOCKS = ("real", "simulated")


class Clock:
    """The engine's clock, in seconds since the Unix epoch (floats)."""

    def __init__(self, native):
        self._native = native

    @property
    def simulated(self):
        return self._native.simulated

    def now(self):
        return self._native.now()

    def now_micros(self):
        return self._native.now_micros()

    def advance(self, seconds):
        """Moves a simulated clock forward by `seconds` (>= 0) and runs the
        work that became due. RuntimeError on the real clock."""
        self._native.advance_micros(_micros(seconds, "seconds"))

    def advance_micros(self, micros):
        self._native.advance_micros(int(micros))

    def set(self, seconds):
        """Sets a simulated clock to `seconds` since the epoch (never back)."""
        self._native.set_micros(_micros(seconds, "seconds"))

    def __repr__(self):
        kind = "simulated" if self.simulated else "real"
        return f"<dynarock.Clock {kind} now={self.now():.6f}>"


def _micros(seconds, what):
    try:
        value = float(seconds)
    except (TypeError, ValueError):
        raise TypeError(f"{what} must be a number, not {type(seconds).__name__}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{what} must be finite")
    return round(value * 1_000_000)


class Engine:
    """One dynarock engine (see the module doc for the arguments' meaning).

    Keyword arguments:
      path: directory of an on-disk database (created if missing, reopenable);
        None (the default) keeps everything in memory.
      clock: "real" (default) or "simulated"; start: a simulated clock's
        first time, seconds since the epoch.
      throttling: refuse requests beyond capacity, as DynamoDB (default off,
        as DynamoDB Local; `dynarock serve` defaults to on).
      shared_db: one set of tables for every client (default True); False
        gives each access key id + region its own, as `dynarock serve`.
      account_id: the AWS account id (12 digits) every ARN names (default
        "123456789012", as `dynarock serve --account-id`); an ARN of another
        account is answered AccessDeniedException.
      table_create_delay / table_delete_delay: seconds a table stays
        CREATING / DELETING (default: 0 on a simulated clock, the engine's
        50 ms on the real one).
      gsi_lag, eventual_read_lag, ttl_sweep_interval, ttl_deletion_spread,
        ttl_status_delay, stream_retention: seconds, as `dynarock serve`'s
        flags (eventual_read_lag: how stale an eventually consistent read of
        a table or LSI may be; default 0).
      partition_split_bytes, memtable_bytes, sync_writes, gsi_propagation
        ("auto", "background", "deterministic"): EngineOptions' fields.
      s3_dir: the directory that stands for Amazon S3 in
        ExportTableToPointInTime and ImportTable (bucket B is its
        subdirectory B), as `dynarock serve --s3-dir` (default
        "dynarock-s3").

    Thread-safe. close() (also on leaving a `with` block) waits for calls in
    flight, then closes the database; every later call raises
    EngineClosedError (a RuntimeError).
    """

    def __init__(self, path=None, *, clock="real", start=1_700_000_000.0,
                 throttling=False, shared_db=True, account_id="123456789012",
                 table_create_delay=None,
                 table_delete_delay=None, gsi_lag=0.0, eventual_read_lag=0.0,
                 gsi_propagation="auto",
                 ttl_sweep_interval=1.0, ttl_deletion_spread=0.0,
                 ttl_status_delay=0.0, stream_retention=24 * 3600.0,
                 partition_split_bytes=10 << 30, memtable_bytes=0,
                 sync_writes=False, s3_dir="dynarock-s3"):
        if clock not in _CLOCKS:
            raise ValueError(f"clock must be one of {_CLOCKS}, not {clock!r}")
        o = _dynarock.Options()
        o.in_memory = path is None
        if path is not None:
            o.path = str(path)
        o.simulated_clock = clock == "simulated"
        o.start = float(start)
        o.throttling = bool(throttling)
        o.shared_db = bool(shared_db)
        o.account_id = str(account_id)
        o.sync_writes = bool(sync_writes)
        if table_create_delay is None and o.simulated_clock:
            table_create_delay = 0.0
        if table_delete_delay is None and o.simulated_clock:
            table_delete_delay = 0.0
        o.table_create_delay = -1.0 if table_create_delay is None else float(table_create_delay)
        o.table_delete_delay = -1.0 if table_delete_delay is None else float(table_delete_delay)
        o.gsi_lag = float(gsi_lag)
        o.eventual_read_lag = float(eventual_read_lag)
        o.gsi_propagation = str(gsi_propagation)
        o.ttl_sweep_interval = float(ttl_sweep_interval)
        o.ttl_deletion_spread = float(ttl_deletion_spread)
        o.ttl_status_delay = float(ttl_status_delay)
        o.stream_retention = float(stream_retention)
        o.partition_split_bytes = int(partition_split_bytes)
        o.memtable_bytes = int(memtable_bytes)
        o.s3_dir = str(s3_dir)
        self._native = _dynarock.Engine(o)
        self.path = path
        self.clock = Clock(self._native)
        self._lock = threading.Lock()

    # --- clients ---

    def client(self, region_name="us-east-1", aws_access_key_id="local",
               validate=True):
        """A boto3-shaped low-level DynamoDB client of this engine. The key
        and region choose the table set only when shared_db=False."""
        return make_client(self, "dynamodb", region_name, aws_access_key_id, validate)

    def streams_client(self, region_name="us-east-1", aws_access_key_id="local",
                       validate=True):
        """A boto3-shaped DynamoDB Streams client of this engine."""
        return make_client(self, "dynamodbstreams", region_name, aws_access_key_id,
                           validate)

    def boto3_client(self, service="dynamodb", region_name="us-east-1",
                     aws_access_key_id="local"):
        """A real boto3 client whose requests this engine answers in process
        (see dynarock.boto3_bridge): every boto3 feature, boto3's speed."""
        from dynarock.boto3_bridge import boto3_client
        return boto3_client(self, service, region_name, aws_access_key_id)

    def resource(self, region_name="us-east-1", aws_access_key_id="local"):
        """boto3.resource("dynamodb") answered by this engine (boto3_bridge)."""
        from dynarock.boto3_bridge import boto3_resource
        return boto3_resource(self, region_name, aws_access_key_id)

    # --- dynarock's extension operations (DynamoRock_20251121.*) ---

    def extension(self, operation, **params):
        """Calls one extension operation (api/dispatch.cc), JSON in and out;
        ClientError on an error response."""
        status, body = self._call(EXTENSION_PREFIX + operation,
                                  json.dumps(params).encode())
        parsed = json.loads(body) if body else {}
        if status >= 300:
            code = parsed.get("__type", "").rsplit("#", 1)[-1] or str(status)
            raise ClientError({"Error": {"Code": code,
                                         "Message": parsed.get("message", "")},
                               "ResponseMetadata": {"HTTPStatusCode": status}},
                              operation)
        return parsed

    def describe_capacity(self, **params):
        """A table's partitions, buckets, consumed and throttled units and hot
        keys (TableName=..., HotKeys=n), as `dynarock stats` shows them."""
        return self.extension("DescribeCapacity", **params)

    def set_throttling(self, enabled):
        return self.extension("SetThrottling", Enabled=bool(enabled))

    def wait_for_indexes(self, **params):
        """Applies every pending GSI change now, whatever its lag."""
        return self.extension("WaitForIndexes", **params)

    # Fault rules (docs/testing.md): DynamoDB's failures on demand for the
    # requests of every client of this engine.

    def put_fault_rule(self, rule):
        """Adds a rule (or replaces the rule with its "Id"); returns it with
        its Id. ClientError ValidationException for a malformed rule."""
        return self.extension("PutFaultRule", Rule=rule)["Rule"]

    def list_fault_rules(self):
        """The rules, each with MatchedCount and FiredCount."""
        return self.extension("ListFaultRules")["Rules"]

    def delete_fault_rule(self, rule_id):
        self.extension("DeleteFaultRule", Id=rule_id)

    def clear_fault_rules(self):
        self.extension("ClearFaultRules")

    def run_due_work(self):
        """Runs what is due on the clock (each call does it first anyway)."""
        self._native.run_due_work()

    # --- lifetime ---

    def _call(self, operation, body, access_key_id="", region=""):
        return self._native.call(operation, body, access_key_id, region)

    @property
    def closed(self):
        return self._native.closed

    def close(self):
        self._native.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        where = "in memory" if self.path is None else f"at {self.path}"
        state = "closed" if self.closed else "open"
        return f"<dynarock.Engine {where}, {self.clock!r}, {state}>"
