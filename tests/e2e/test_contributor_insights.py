"""Contributor insights through boto3: Update / Describe / List for a table
and its GSI, and the setting kept over a restart of an on-disk server."""

from conftest import DynarockServer


def make_table(c, name):
    c.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"},
                              {"AttributeName": "g", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}],
        GlobalSecondaryIndexes=[{"IndexName": "ByG",
                                 "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                                 "Projection": {"ProjectionType": "ALL"}}])
    c.get_waiter("table_exists").wait(TableName=name,
                                      WaiterConfig={"Delay": 0.1, "MaxAttempts": 100})


def test_contributor_insights_across_a_restart(tmp_path):
    s = DynarockServer("--db-path", str(tmp_path / "db"))
    try:
        c = s.client()
        make_table(c, "Insights")
        r = c.update_contributor_insights(TableName="Insights",
                                          ContributorInsightsAction="ENABLE")
        assert r["ContributorInsightsStatus"] == "ENABLING"
        d = c.describe_contributor_insights(TableName="Insights")
        assert d["ContributorInsightsStatus"] == "ENABLED"
        assert [rule.split("-")[1] for rule in d["ContributorInsightsRuleList"]] == \
            ["PKC", "SKC", "PKT", "SKT"]
        assert all(rule.startswith("DynamoDBContributorInsights-")
                   for rule in d["ContributorInsightsRuleList"])
        c.update_contributor_insights(TableName="Insights", IndexName="ByG",
                                      ContributorInsightsAction="ENABLE")
        s.stop()
        s.start()
        c = s.client()
        d = c.describe_contributor_insights(TableName="Insights", IndexName="ByG")
        assert d["ContributorInsightsStatus"] == "ENABLED"
        assert d["IndexName"] == "ByG"
        listed = c.list_contributor_insights(TableName="Insights")
        assert [(x["TableName"], x.get("IndexName"), x["ContributorInsightsStatus"])
                for x in listed["ContributorInsightsSummaries"]] == [
            ("Insights", None, "ENABLED"), ("Insights", "ByG", "ENABLED")]
    finally:
        s.stop()
