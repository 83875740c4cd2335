"""tests/python: the dynarock Python package against a real in-process engine.

Run (after scripts/python.sh, or with PYTHONPATH=build/python-pkg from
`scripts/python.sh --no-install`):

    /usr/bin/python3 -m pytest tests/python
"""

import pytest

import dynarock
import dynarock.pytest_plugin


def pytest_configure(config):
    # The plugin is loaded automatically when scripts/python.sh installed the
    # package (its pytest11 entry point); from a build tree it is not.
    if not config.pluginmanager.is_registered(dynarock.pytest_plugin):
        config.pluginmanager.register(dynarock.pytest_plugin, "dynarock")


def create_table(ddb, name="tbl", range_key=False, **extra):
    keys = [{"AttributeName": "pk", "KeyType": "HASH"}]
    attrs = [{"AttributeName": "pk", "AttributeType": "S"}]
    if range_key:
        keys.append({"AttributeName": "sk", "KeyType": "RANGE"})
        attrs.append({"AttributeName": "sk", "AttributeType": "N"})
    attrs += extra.pop("ExtraAttributes", [])
    params = dict(TableName=name, KeySchema=keys, AttributeDefinitions=attrs)
    if "ProvisionedThroughput" not in extra:
        params["BillingMode"] = "PAY_PER_REQUEST"
    params.update(extra)
    ddb.create_table(**params)
    ddb.get_waiter("table_exists").wait(TableName=name,
                                        WaiterConfig={"Delay": 0.01, "MaxAttempts": 500})
    return name


@pytest.fixture
def sim():
    """An engine on a simulated clock, throttling on, as a simulator opens it."""
    with dynarock.Engine(clock="simulated", start=1_700_000_000.0, throttling=True) as eng:
        yield eng
