// Test control with the AWS SDK for JavaScript v3 (docs/testing.md): fault
// rules make DynamoDB's failures on demand and the SDK's own retry strategy
// meets them; a simulated clock moves only through AdvanceClock.
//
// Starts its own `dynarock serve --in-memory --port 0 --clock simulated=...`
// ($DYNAROCK_BIN, else build/dynarock in the repository).
// Run: cd tests/e2e/js && npm ci && node --test

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";

import { startServer } from "./dynarock_server.mjs";

import {
  BatchWriteItemCommand,
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
} from "@aws-sdk/client-dynamodb";

const START = 1_700_000_000;
const CREDENTIALS = { accessKeyId: "AKIDJSFAULTS", secretAccessKey: "secret" };

let server = null;
let counter = 0;

function tableName(prefix) {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 10)}`;
}

function client(maxAttempts) {
  return new DynamoDBClient({
    endpoint: server.url, region: "us-east-1", credentials: CREDENTIALS, maxAttempts,
  });
}

// A DynamoRock_20251121 extension over HTTP: no SDK sends its target.
async function extension(operation, body = {}) {
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.0",
      "X-Amz-Target": `DynamoRock_20251121.${operation}`,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function putRule(rule) {
  const { status, body } = await extension("PutFaultRule", { Rule: rule });
  assert.equal(status, 200, JSON.stringify(body));
  return body.Rule;
}

async function createTable(ddb, name) {
  await ddb.send(new CreateTableCommand({
    TableName: name, BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  }));
  return name;
}

before(async () => {
  server = await startServer([`--clock=simulated=${START}`]);
});

after(async () => {
  if (server) {
    server.proc.kill("SIGTERM");
    const [code] = await once(server.proc, "exit");
    assert.equal(code, 0);
  }
});

describe("fault rules", () => {
  test("the SDK's standard retries meet injected throttles and succeed", async () => {
    const ddb = client(3);
    const name = await createTable(ddb, tableName("retry"));
    const rule = await putRule({
      Match: { Operations: ["PutItem"], TableName: name },
      Effect: { Error: "ProvisionedThroughputExceededException" },
      When: { FirstN: 2 },
    });
    const out = await ddb.send(new PutItemCommand({ TableName: name, Item: { pk: { S: "a" } } }));
    assert.equal(out.$metadata.attempts, 3);
    const { body } = await extension("ListFaultRules");
    const listed = body.Rules.find((r) => r.Id === rule.Id);
    assert.deepEqual([listed.MatchedCount, listed.FiredCount], [3, 2]);
    await extension("DeleteFaultRule", { Id: rule.Id });
  });

  test("without retries the throttle is DynamoDB's and nothing is written", async () => {
    const ddb = client(1);
    const name = await createTable(ddb, tableName("noretry"));
    const rule = await putRule({
      Match: { Operations: ["PutItem"], TableName: name },
      Effect: { Error: "ThrottlingException" },
    });
    await assert.rejects(
      ddb.send(new PutItemCommand({ TableName: name, Item: { pk: { S: "a" } } })),
      (err) => {
        assert.equal(err.name, "ThrottlingException");
        assert.equal(err.$metadata.httpStatusCode, 400);
        assert.equal(err.message, "Rate of requests exceeds the allowed throughput.");
        return true;
      });
    await extension("DeleteFaultRule", { Id: rule.Id });
    const got = await ddb.send(new GetItemCommand({ TableName: name, Key: { pk: { S: "a" } } }));
    assert.equal(got.Item, undefined);
  });

  test("ServiceUnavailable is a 503 the SDK retries", async () => {
    const ddb = client(2);
    const name = await createTable(ddb, tableName("unavailable"));
    const rule = await putRule({
      Match: { Operations: ["GetItem"], TableName: name },
      Effect: { Error: "ServiceUnavailable" }, When: { FirstN: 1 },
    });
    const out = await ddb.send(new GetItemCommand({ TableName: name, Key: { pk: { S: "a" } } }));
    assert.equal(out.$metadata.attempts, 2);
    await extension("DeleteFaultRule", { Id: rule.Id });
  });

  test("chosen keys of a batch come back unprocessed", async () => {
    const ddb = client(1);
    const name = await createTable(ddb, tableName("batch"));
    const rule = await putRule({
      Match: { Operations: ["BatchWriteItem"], Key: { pk: { S: "b" } } },
      Effect: { Unprocessed: true },
    });
    const out = await ddb.send(new BatchWriteItemCommand({ RequestItems: { [name]: [
      { PutRequest: { Item: { pk: { S: "a" } } } },
      { PutRequest: { Item: { pk: { S: "b" } } } },
    ] } }));
    assert.deepEqual(out.UnprocessedItems, { [name]: [{ PutRequest: { Item: { pk: { S: "b" } } } }] });
    await extension("DeleteFaultRule", { Id: rule.Id });
  });

  test("a transaction cancelled with chosen reasons", async () => {
    const ddb = client(1);
    const name = await createTable(ddb, tableName("txn"));
    const rule = await putRule({
      Match: { Operations: ["TransactWriteItems"] },
      Effect: { Error: "TransactionCanceledException",
                CancellationReasons: ["ConditionalCheckFailed", "None"] },
    });
    await assert.rejects(
      ddb.send(new TransactWriteItemsCommand({ TransactItems: [
        { Put: { TableName: name, Item: { pk: { S: "a" } } } },
        { Put: { TableName: name, Item: { pk: { S: "b" } } } },
      ] })),
      (err) => {
        assert.equal(err.name, "TransactionCanceledException");
        assert.deepEqual(err.CancellationReasons.map((r) => r.Code),
                         ["ConditionalCheckFailed", "None"]);
        return true;
      });
    await extension("DeleteFaultRule", { Id: rule.Id });
  });
});

describe("simulated clock", () => {
  test("time moves only through AdvanceClock", async () => {
    const ddb = client(1);
    const name = await createTable(ddb, tableName("clock"));
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: name }));
    assert.equal(Table.TableStatus, "ACTIVE");
    const before = (await extension("DescribeClock")).body;
    assert.equal(before.Mode, "SIMULATED");
    assert.equal(Table.CreationDateTime.getTime(), before.Now * 1000);
    const advanced = await extension("AdvanceClock", { Seconds: 86_400 });
    assert.deepEqual(advanced.body, { Mode: "SIMULATED", Now: before.Now + 86_400 });
    const back = await extension("SetClock", { Now: START });
    assert.equal(back.status, 400);
    assert.match(back.body.__type, /ValidationException$/);
  });
});
