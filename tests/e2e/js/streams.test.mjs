// DynamoDB Streams end to end with @aws-sdk/client-dynamodb-streams: the
// streams client pointed at the same endpoint as DynamoDB's reads
// INSERT / MODIFY / REMOVE in order, and reads through a partition split
// (forced with --partition-split-bytes) parents first.
//
// Run: cd tests/e2e/js && npm ci && node --test

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";

import { startServer } from "./dynarock_server.mjs";

import {
  CreateTableCommand,
  DeleteItemCommand,
  DynamoDBClient,
  PutItemCommand,
  UpdateItemCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ListStreamsCommand,
} from "@aws-sdk/client-dynamodb-streams";

let server = null;
let endpoint = null;

before(async () => {
  ({ proc: server, url: endpoint } =
    await startServer(["--throttling", "off", "--partition-split-bytes", "10000"]));
});

after(async () => {
  if (server) {
    server.kill("SIGTERM");
    const [code] = await once(server, "exit");
    assert.equal(code, 0);
  }
});

const config = () => ({
  endpoint, region: "us-east-1", maxAttempts: 1,
  credentials: { accessKeyId: "AKIDJS", secretAccessKey: "secret" },
});

async function createStreamTable(ddb, name) {
  const out = await ddb.send(new CreateTableCommand({
    TableName: name,
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    BillingMode: "PAY_PER_REQUEST",
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
  }));
  await waitUntilTableExists({ client: ddb, minDelay: 1, maxWaitTime: 30 }, { TableName: name });
  return out.TableDescription.LatestStreamArn;
}

// Every record of the stream, shards in DescribeStream order (parents first).
async function readAll(streams, arn) {
  const { StreamDescription: d } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }));
  const records = [];
  for (const shard of d.Shards) {
    let { ShardIterator: it } = await streams.send(new GetShardIteratorCommand({
      StreamArn: arn, ShardId: shard.ShardId, ShardIteratorType: "TRIM_HORIZON" }));
    while (it) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: it }));
      records.push(...page.Records);
      it = page.NextShardIterator;
      if (page.Records.length === 0) break;
    }
  }
  return { shards: d.Shards, records };
}

test("reads INSERT, MODIFY and REMOVE in order", async () => {
  const ddb = new DynamoDBClient(config());
  const streams = new DynamoDBStreamsClient(config());
  const name = `js-streams-${Math.random().toString(36).slice(2, 10)}`;
  const arn = await createStreamTable(ddb, name);
  const listed = await streams.send(new ListStreamsCommand({ TableName: name }));
  assert.deepEqual(listed.Streams.map((s) => s.StreamArn), [arn]);
  await ddb.send(new PutItemCommand({ TableName: name, Item: { pk: { S: "a" }, n: { N: "1" } } }));
  await ddb.send(new UpdateItemCommand({ TableName: name, Key: { pk: { S: "a" } },
    UpdateExpression: "SET n = :n", ExpressionAttributeValues: { ":n": { N: "2" } } }));
  await ddb.send(new DeleteItemCommand({ TableName: name, Key: { pk: { S: "a" } } }));
  const { records } = await readAll(streams, arn);
  assert.deepEqual(records.map((r) => r.eventName), ["INSERT", "MODIFY", "REMOVE"]);
  assert.deepEqual(records[0].dynamodb.Keys, { pk: { S: "a" } });
  assert.deepEqual(records[1].dynamodb.OldImage, { pk: { S: "a" }, n: { N: "1" } });
  assert.deepEqual(records[1].dynamodb.NewImage, { pk: { S: "a" }, n: { N: "2" } });
  assert.equal(records[2].dynamodb.NewImage, undefined);
  assert.ok(records[0].dynamodb.ApproximateCreationDateTime instanceof Date);
  assert.equal(records[0].eventSource, "aws:dynamodb");
});

test("reads through a partition split, parents first", async () => {
  const ddb = new DynamoDBClient(config());
  const streams = new DynamoDBStreamsClient(config());
  const name = `js-split-${Math.random().toString(36).slice(2, 10)}`;
  const arn = await createStreamTable(ddb, name);
  const written = {};
  for (let i = 0; i < 300; i++) {
    const pk = `k${i % 100}`;
    await ddb.send(new PutItemCommand({ TableName: name,
      Item: { pk: { S: pk }, v: { N: String(i) }, pad: { S: "x".repeat(400) } } }));
    (written[pk] ??= []).push(i);
  }
  const { shards, records } = await readAll(streams, arn);
  const ids = shards.map((s) => s.ShardId);
  const children = shards.filter((s) => s.ParentShardId);
  assert.ok(children.length >= 2, "a split opened child shards");
  for (const child of children) {
    const parent = shards.find((s) => s.ShardId === child.ParentShardId);
    assert.ok(parent.SequenceNumberRange.EndingSequenceNumber, "the parent is closed");
    assert.ok(ids.indexOf(parent.ShardId) < ids.indexOf(child.ShardId));
  }
  const seen = {};
  for (const r of records) (seen[r.dynamodb.Keys.pk.S] ??= []).push(Number(r.dynamodb.NewImage.v.N));
  assert.deepEqual(seen, written);
});
