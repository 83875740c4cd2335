// Vector indexes end to end with the AWS SDK for JavaScript v3 (3.1169, the
// first with SearchVectorsCommand; docs/vector-search.md): CreateTable with
// VectorIndexes, DescribeTable, PutItem (a wrong-dimension vector refused),
// SearchVectors (TopK, HASH condition, inline filter, projection, consumed
// VectorSearchRequestBytes, the documented validation messages), UpdateTable
// VectorIndexUpdates Create (CREATING + Backfilling, then ACTIVE) and Delete,
// RestoreTableFromBackup with VectorIndexOverride.
//
// Run: cd tests/e2e/js && npm ci && node --test vector_search.test.mjs

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";

import { startServer } from "./dynarock_server.mjs";

import {
  CreateBackupCommand,
  CreateTableCommand,
  DescribeBackupCommand,
  DescribeTableCommand,
  DynamoDBClient,
  PutItemCommand,
  RestoreTableFromBackupCommand,
  ScanCommand,
  SearchVectorsCommand,
  UpdateTableCommand,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";

let server = null;
let ddb = null;

before(async () => {
  const started = await startServer(["--throttling", "off"]);
  server = started.proc;
  ddb = new DynamoDBClient({
    endpoint: started.url, region: "us-east-1", maxAttempts: 1,
    credentials: { accessKeyId: "AKIDJS", secretAccessKey: "secret" },
  });
});

after(async () => {
  if (server) {
    server.kill("SIGTERM");
    const [code] = await once(server, "exit");
    assert.equal(code, 0);
  }
});

const vec = (v) => ({ L: v.map((x) => ({ N: String(x) })) });
const floats = (v) => v.map((x) => ({ N: String(x) }));

// A deterministic generator (no Math.random: the answer is checked exactly).
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 * 2 - 1;
  };
}

function euclidean(a, b) {
  return Math.sqrt(a.reduce((sum, x, i) => sum + (x - b[i]) ** 2, 0));
}

// ACTIVE with `count` items indexed (the index is kept asynchronously).
async function waitActive(name, index, count) {
  for (let i = 0; i < 400; i++) {
    const { Table } = await ddb.send(new DescribeTableCommand({ TableName: name }));
    const v = (Table.VectorIndexes ?? []).find((x) => x.IndexName === index);
    if (v && v.IndexStatus === "ACTIVE" && v.ItemCount === count &&
        Table.TableStatus === "ACTIVE") {
      return v;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`vector index ${index} of ${name} never became ACTIVE`);
}

async function searchUntil(input, expectedCount) {
  // The index is kept asynchronously (from the GSI log): poll until the
  // last write is visible, as an application reading a GSI would.
  for (let i = 0; i < 400; i++) {
    const out = await ddb.send(new SearchVectorsCommand(input));
    if (out.SearchResults.length >= expectedCount) return out;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail("SearchVectors never returned the expected results");
}

async function rejects(promise, name, message) {
  await assert.rejects(promise, (e) => {
    assert.equal(e.name, name);
    if (message instanceof RegExp) assert.match(e.message, message);
    else assert.equal(e.message, message);
    return true;
  });
}

test("CreateTable with VectorIndexes, PutItem, SearchVectors", async () => {
  const out = await ddb.send(new CreateTableCommand({
    TableName: "jsvec",
    BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [
      { AttributeName: "pk", AttributeType: "S" },
      { AttributeName: "tenant", AttributeType: "S" },
      { AttributeName: "color", AttributeType: "S" },
    ],
    VectorIndexes: [{
      IndexName: "emb",
      VectorAttribute: { AttributeName: "v" },
      Dimensions: 4,
      DistanceFunction: "EUCLIDEAN",
      SearchSchema: [
        { AttributeName: "tenant", SearchSchemaElementType: "HASH" },
        { AttributeName: "color", SearchSchemaElementType: "INLINE_FILTER" },
      ],
      Projection: { ProjectionType: "INCLUDE", NonKeyAttributes: ["title"] },
    }],
  }));
  const created = out.TableDescription.VectorIndexes[0];
  assert.equal(created.IndexName, "emb");
  assert.equal(created.Dimensions, 4);
  assert.equal(created.DistanceFunction, "EUCLIDEAN");
  assert.deepEqual(created.VectorAttribute, { AttributeName: "v" });
  assert.equal(created.Backfilling, undefined);  // created with its table
  assert.match(created.IndexArn, /:table\/jsvec\/index\/emb$/);

  await waitUntilTableExists({ client: ddb, minDelay: 1, maxWaitTime: 30 }, { TableName: "jsvec" });
  const next = rng(42);
  const items = [];
  for (let i = 0; i < 200; i++) {
    const v = [next(), next(), next(), next()];
    const tenant = i % 2 ? "t1" : "t2";
    const color = i % 8 === 0 ? "red" : "blue";
    items.push({ pk: `k${i}`, tenant, color, v });
    await ddb.send(new PutItemCommand({
      TableName: "jsvec",
      Item: { pk: { S: `k${i}` }, tenant: { S: tenant }, color: { S: color },
              title: { S: `item ${i}` }, other: { S: "x" }, v: vec(v) },
    }));
  }
  const index = await waitActive("jsvec", "emb", 200);
  assert.equal(index.ItemCount, 200);

  const q = [0.1, -0.2, 0.3, 0.05];
  const exact = (tenant, color, k) => items
    .filter((it) => it.tenant === tenant && (!color || it.color === color))
    .map((it) => [euclidean(it.v, q), it.pk])
    .sort((a, b) => a[0] - b[0])
    .slice(0, k);

  const want = exact("t1", null, 10);
  const found = await searchUntil({
    TableName: "jsvec", IndexName: "emb", SearchVector: floats(q), TopK: 10,
    SearchConditionExpression: "tenant = :t",
    ExpressionAttributeValues: { ":t": { S: "t1" } },
    ReturnConsumedCapacity: "TOTAL",
  }, 10);
  assert.deepEqual(found.SearchResults.map((r) => r.Item.pk.S), want.map(([, pk]) => pk));
  found.SearchResults.forEach((r, i) => assert.ok(Math.abs(r.Score - want[i][0]) < 1e-5));
  // INCLUDE projects the key, the search schema and `title`, not `other`
  // nor the vector.
  assert.deepEqual(Object.keys(found.SearchResults[0].Item).sort(),
                   ["color", "pk", "tenant", "title"]);
  assert.ok(found.ConsumedCapacity.VectorSearchRequestBytes > 0);

  // A selective inline filter (one item in eight) still returns TopK.
  const red = await ddb.send(new SearchVectorsCommand({
    TableName: "jsvec", IndexName: "emb", SearchVector: floats(q), TopK: 5,
    SearchConditionExpression: "#t = :t AND color = :c",
    ExpressionAttributeNames: { "#t": "tenant" },
    ExpressionAttributeValues: { ":t": { S: "t2" }, ":c": { S: "red" } },
    ProjectionExpression: "pk, color",
  }));
  assert.deepEqual(red.SearchResults.map((r) => r.Item.pk.S),
                   exact("t2", "red", 5).map(([, pk]) => pk));
  assert.ok(red.SearchResults.every((r) => r.Item.color.S === "red"));
  assert.equal(red.ConsumedCapacity, undefined);

  // DynamoDB's messages.
  const base = { TableName: "jsvec", IndexName: "emb", SearchVector: floats(q) };
  await rejects(ddb.send(new SearchVectorsCommand({ ...base, TopK: 101 })),
                "ValidationException", "Provided TopK value is out of valid range");
  await rejects(ddb.send(new SearchVectorsCommand({ ...base, TopK: 3 })),
                "ValidationException",
                "SearchConditionExpression must be provided when SearchSchema has a HASH key");
  await rejects(ddb.send(new SearchVectorsCommand({
    ...base, TopK: 3, IndexName: "nope",
  })), "ValidationException", "The table does not have the specified index: nope");
  await rejects(ddb.send(new SearchVectorsCommand({
    ...base, TopK: 3, SearchVector: floats([1, 2]),
    SearchConditionExpression: "tenant = :t", ExpressionAttributeValues: { ":t": { S: "t1" } },
  })), "ValidationException", /dimensions/);
  await rejects(ddb.send(new PutItemCommand({
    TableName: "jsvec", Item: { pk: { S: "bad" }, tenant: { S: "t1" }, v: vec([1, 2, 3]) },
  })), "ValidationException", /dimensions/);
  await rejects(ddb.send(new ScanCommand({ TableName: "jsvec", IndexName: "emb" })),
                "ValidationException", /SearchVectors/);
});

test("UpdateTable creates and deletes a vector index", async () => {
  await ddb.send(new CreateTableCommand({
    TableName: "jsvec2",
    BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
  }));
  await waitUntilTableExists({ client: ddb, minDelay: 1, maxWaitTime: 30 }, { TableName: "jsvec2" });
  for (let i = 0; i < 40; i++) {
    await ddb.send(new PutItemCommand({
      TableName: "jsvec2", Item: { pk: { S: `k${i}` }, v: vec([i, 1, 0]) },
    }));
  }
  const created = await ddb.send(new UpdateTableCommand({
    TableName: "jsvec2",
    VectorIndexUpdates: [{ Create: {
      IndexName: "byv", VectorAttribute: { AttributeName: "v" }, Dimensions: 3,
      DistanceFunction: "COSINE", Projection: { ProjectionType: "KEYS_ONLY" },
    } }],
  }));
  const v = created.TableDescription.VectorIndexes[0];
  assert.equal(v.IndexStatus, "CREATING");
  assert.equal(v.Backfilling, true);

  const active = await waitActive("jsvec2", "byv", 40);
  assert.equal(active.Backfilling, false);
  assert.equal(active.ItemCount, 40);
  const out = await ddb.send(new SearchVectorsCommand({
    TableName: "jsvec2", IndexName: "byv", SearchVector: floats([0, 1, 0]), TopK: 2,
  }));
  // COSINE: k0 = [0, 1, 0] is identical (score 0), k1 = [1, 1, 0] next.
  assert.deepEqual(out.SearchResults.map((r) => r.Item), [{ pk: { S: "k0" } }, { pk: { S: "k1" } }]);
  assert.ok(Math.abs(out.SearchResults[0].Score) < 1e-6);
  assert.ok(Math.abs(out.SearchResults[1].Score - (1 - Math.SQRT1_2)) < 1e-6);

  const deleted = await ddb.send(new UpdateTableCommand({
    TableName: "jsvec2", VectorIndexUpdates: [{ Delete: { IndexName: "byv" } }],
  }));
  assert.equal(deleted.TableDescription.VectorIndexes[0].IndexStatus, "DELETING");
  const { Table } = await ddb.send(new DescribeTableCommand({ TableName: "jsvec2" }));
  assert.equal(Table.VectorIndexes, undefined);
  await rejects(ddb.send(new SearchVectorsCommand({
    TableName: "jsvec2", IndexName: "byv", SearchVector: floats([0, 1, 0]), TopK: 2,
  })), "ValidationException", "The table does not have the specified index: byv");
});

test("a provisioned table cannot have a vector index", async () => {
  await rejects(ddb.send(new CreateTableCommand({
    TableName: "jsvec3",
    BillingMode: "PROVISIONED",
    ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    VectorIndexes: [{
      IndexName: "emb", VectorAttribute: { AttributeName: "v" }, Dimensions: 2,
      DistanceFunction: "COSINE", Projection: { ProjectionType: "ALL" },
    }],
  })), "ValidationException", /on-demand/);
});

test("a restore keeps the vector indexes VectorIndexOverride names", async () => {
  const index = (name, fn) => ({
    IndexName: name, VectorAttribute: { AttributeName: "v" }, Dimensions: 2,
    DistanceFunction: fn, Projection: { ProjectionType: "KEYS_ONLY" },
  });
  await ddb.send(new CreateTableCommand({
    TableName: "jsvec4",
    BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
    VectorIndexes: [index("byCos", "COSINE"), index("byL2", "EUCLIDEAN")],
  }));
  await waitUntilTableExists({ client: ddb, minDelay: 1, maxWaitTime: 30 }, { TableName: "jsvec4" });
  for (const [pk, v] of [["a", [1, 0]], ["b", [3, 4]]]) {
    await ddb.send(new PutItemCommand({ TableName: "jsvec4", Item: { pk: { S: pk }, v: vec(v) } }));
  }
  const { BackupDetails } = await ddb.send(new CreateBackupCommand({
    TableName: "jsvec4", BackupName: "jsvec4-backup",
  }));
  // A backup is restored once AVAILABLE (CREATING first).
  for (let i = 0; ; i++) {
    const d = await ddb.send(new DescribeBackupCommand({ BackupArn: BackupDetails.BackupArn }));
    if (d.BackupDescription.BackupDetails.BackupStatus === "AVAILABLE") break;
    assert.ok(i < 300, "the backup never became AVAILABLE");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const restored = await ddb.send(new RestoreTableFromBackupCommand({
    TargetTableName: "jsvec5", BackupArn: BackupDetails.BackupArn,
    VectorIndexOverride: [index("byL2", "EUCLIDEAN")],
  }));
  assert.deepEqual(restored.TableDescription.VectorIndexes.map((v) => v.IndexName), ["byL2"]);
  await waitUntilTableExists({ client: ddb, minDelay: 1, maxWaitTime: 30 }, { TableName: "jsvec5" });
  const out = await ddb.send(new SearchVectorsCommand({
    TableName: "jsvec5", IndexName: "byL2", SearchVector: floats([3, 3]), TopK: 1,
  }));
  assert.deepEqual(out.SearchResults.map((r) => r.Item), [{ pk: { S: "b" } }]);
  await rejects(ddb.send(new SearchVectorsCommand({
    TableName: "jsvec5", IndexName: "byCos", SearchVector: floats([3, 3]), TopK: 1,
  })), "ValidationException", "The table does not have the specified index: byCos");
  await rejects(ddb.send(new RestoreTableFromBackupCommand({
    TargetTableName: "jsvec6", BackupArn: BackupDetails.BackupArn,
    VectorIndexOverride: [index("byL2", "COSINE")],
  })), "ValidationException", /Index byL2 does not match a vector index that existed/);
});
