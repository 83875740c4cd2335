"""dynarock in process: a DynamoDB-compatible engine that keeps DynamoDB's
physics (capacity units, partitions, throttling, GSI lag, TTL, streams) on
a clock you can drive, with a boto3-shaped client.

    import dynarock
    with dynarock.Engine(clock="simulated", throttling=True) as eng:
        ddb = eng.client()
        ddb.create_table(...); ddb.put_item(TableName="T", Item={...})
        eng.clock.advance(2.5)
        eng.describe_capacity(TableName="T")

See docs/python.md in the repository.
"""

from dynarock.engine import Clock, Engine
from dynarock.errors import (ClientError, EngineClosedError, ParamValidationError,
                             WaiterError)

__all__ = ["Clock", "ClientError", "Engine", "EngineClosedError",
           "ParamValidationError", "WaiterError"]
__version__ = "0.1.0"
