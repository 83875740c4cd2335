"""Fault rules in process (docs/testing.md): the same rules `dynarock serve`
takes over HTTP, set from Python, seen by the boto3-shaped client."""

import time

import pytest

import dynarock
from conftest import create_table


def test_an_injected_throttle_reaches_the_client_and_writes_nothing(dynarock_engine):
    ddb = dynarock_engine.client()
    create_table(ddb)
    rule = dynarock_engine.put_fault_rule({
        "Match": {"Operations": ["PutItem"], "TableName": "tbl"},
        "Effect": {"Error": "ProvisionedThroughputExceededException"},
        "When": {"FirstN": 1}})
    assert rule["Id"] == "rule-1"
    with pytest.raises(dynarock.ClientError) as e:
        ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}})
    assert e.value.response["Error"]["Code"] == "ProvisionedThroughputExceededException"
    assert "Item" not in ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})
    ddb.put_item(TableName="tbl", Item={"pk": {"S": "a"}})  # FirstN spent
    [listed] = dynarock_engine.list_fault_rules()
    assert (listed["MatchedCount"], listed["FiredCount"]) == (2, 1)
    capacity = dynarock_engine.describe_capacity(TableName="tbl")
    assert capacity["InjectedFaults"] == {"ProvisionedThroughputExceededException": 1}
    dynarock_engine.delete_fault_rule("rule-1")
    assert dynarock_engine.list_fault_rules() == []


def test_latency_is_waited_out_in_process(dynarock_engine):
    ddb = dynarock_engine.client()
    create_table(ddb)
    dynarock_engine.put_fault_rule({"Id": "slow", "Match": {"Operations": ["GetItem"]},
                                    "Effect": {"LatencyMillis": 200}})
    started = time.monotonic()
    ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})
    assert time.monotonic() - started >= 0.2
    dynarock_engine.clear_fault_rules()
    assert dynarock_engine.list_fault_rules() == []


def test_a_bad_rule_is_a_validation_error(dynarock_engine):
    with pytest.raises(dynarock.ClientError) as e:
        dynarock_engine.put_fault_rule({"Effect": {"Error": "NoSuchError"}})
    assert e.value.response["Error"]["Code"] == "ValidationException"


def test_a_window_on_the_simulated_clock(sim):
    ddb = sim.client()
    create_table(ddb)
    now = sim.clock.now()
    sim.put_fault_rule({"Match": {"Operations": ["GetItem"]},
                        "Effect": {"Error": "InternalServerError"},
                        "When": {"From": now + 60, "To": now + 120}})
    ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})
    sim.clock.advance(60)
    with pytest.raises(dynarock.ClientError) as e:
        ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})
    assert e.value.response["Error"]["Code"] == "InternalServerError"
    sim.clock.advance(60)
    ddb.get_item(TableName="tbl", Key={"pk": {"S": "a"}})
