// Bulk put items with the AWS SDK for JavaScript v3 (3.1169, the first with
// the commands): StartBulkPutItems over gzip'd DynamoDB JSON objects in the
// directory standing for S3 (one record with a condition that is false, one
// that is not an item), the SDK's own waiter (waitUntilBulkOperationCompleted),
// DescribeBulkOperation's counters and usage, the error report written to
// the output bucket, ListBulkOperations, CancelBulkOperation, and
// DynamoDB's errors for a bad request.
//
// Starts its own `dynarock serve --in-memory --port 0 --s3-dir <tmp>`
// ($DYNAROCK_BIN, else build/dynarock in the repository).
// Run: cd tests/e2e/js && npm ci && node --test

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

import { startServer } from "./dynarock_server.mjs";

import {
  CancelBulkOperationCommand,
  CreateTableCommand,
  DescribeBulkOperationCommand,
  DynamoDBClient,
  GetItemCommand,
  ListBulkOperationsCommand,
  PutItemCommand,
  ScanCommand,
  StartBulkPutItemsCommand,
  waitUntilBulkOperationCompleted,
  waitUntilTableExists,
} from "@aws-sdk/client-dynamodb";

const WAIT = { minDelay: 1, maxDelay: 1, maxWaitTime: 60 };

let server = null;
let client = null;
let s3dir = null;

async function createTable(name) {
  await client.send(new CreateTableCommand({
    TableName: name,
    BillingMode: "PAY_PER_REQUEST",
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    AttributeDefinitions: [
      { AttributeName: "pk", AttributeType: "S" },
      { AttributeName: "g", AttributeType: "S" },
    ],
    GlobalSecondaryIndexes: [{
      IndexName: "ByG",
      KeySchema: [{ AttributeName: "g", KeyType: "HASH" }],
      Projection: { ProjectionType: "KEYS_ONLY" },
    }],
  }));
  await waitUntilTableExists({ client, ...WAIT }, { TableName: name });
}

function writeObject(bucket, key, lines) {
  const path = join(s3dir, bucket, key);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, gzipSync(lines.map((l) => JSON.stringify(l)).join("\n") + "\n"));
}

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

function start(table, prefix, extra = {}) {
  return client.send(new StartBulkPutItemsCommand({
    TableName: table,
    InputS3Configuration: {
      S3Bucket: "input", S3KeyPrefix: prefix, InputFormat: "DYNAMODB_JSON",
      InputCompressionType: "GZIP",
    },
    OutputS3Configuration: {
      S3Bucket: "output", S3KeyPrefix: `reports/${table}`,
      OutputType: ["ERROR", "CONDITION_CHECK_FAILURE"],
    },
    ...extra,
  }));
}

describe("bulk put items (AWS SDK for JavaScript v3)", () => {
  before(async () => {
    s3dir = mkdtempSync(join(tmpdir(), "dynarock-bulk-"));
    mkdirSync(join(s3dir, "input"));
    mkdirSync(join(s3dir, "output"));
    server = await startServer(["--s3-dir", s3dir]);
    client = new DynamoDBClient({
      endpoint: server.url, region: "us-east-1",
      credentials: { accessKeyId: "bulk", secretAccessKey: "secret" },
    });
  });

  after(async () => {
    client?.destroy();
    if (server) {
      server.proc.kill("SIGTERM");
      await once(server.proc, "exit");
    }
    if (s3dir) rmSync(s3dir, { recursive: true, force: true });
  });

  test("writes the objects' items through the table, with a report of the rest", async () => {
    await createTable("Bulk");
    await client.send(new PutItemCommand({
      TableName: "Bulk", Item: { pk: { S: "kept" }, v: { S: "old" } },
    }));
    const lines = [];
    for (let i = 0; i < 200; i++) {
      lines.push({ Item: { pk: { S: `p${i}` }, g: { S: `g${i % 4}` }, n: { N: String(i) } } });
    }
    writeObject("input", "data/part-1.json.gz", lines);
    writeObject("input", "data/part-2.json.gz", [
      { Item: { pk: { S: "kept" }, v: { S: "new" } },
        ConditionExpression: "attribute_not_exists(#k)",
        ExpressionAttributeNames: { "#k": "pk" } },
      { NotAnItem: {} },
    ]);

    const started = await start("Bulk", "data/", { ClientToken: "load-1" });
    const arn = started.BulkOperationDescription.BulkOperationArn;
    assert.match(arn, /^arn:aws:dynamodb:us-east-1:\d{12}:table\/Bulk\/bulk-operation\//);
    assert.equal(started.BulkOperationDescription.BulkOperationStatus, "IN_PROGRESS");
    assert.equal(started.BulkOperationDescription.PerformanceTier, "STANDARD");

    const waited = await waitUntilBulkOperationCompleted({ client, ...WAIT },
                                                         { BulkOperationArn: arn });
    const d = waited.reason.BulkOperationDescription;
    assert.equal(d.BulkOperationStatus, "COMPLETED_WITH_ERRORS");
    assert.equal(d.ProcessedItemCount, 202);
    assert.equal(d.FailedItemCount, 1);
    assert.ok(d.EndTime instanceof Date);
    assert.equal(d.TotalInputBytes, d.ProcessedInputBytes);
    assert.deepEqual(d.TableDetails.map((t) => t.TableName), ["Bulk"]);
    const usage = d.BulkOperationUsage[0];
    assert.equal(usage.TableName, "Bulk");
    assert.ok(usage.Table.BulkPutBytes > 0);
    assert.ok(usage.GlobalSecondaryIndexes.ByG.BulkPutBytes > 0);
    assert.equal(usage.BulkPutBytes,
                 usage.Table.BulkPutBytes + usage.GlobalSecondaryIndexes.ByG.BulkPutBytes);

    const scanned = await client.send(new ScanCommand({ TableName: "Bulk", Select: "COUNT" }));
    assert.equal(scanned.Count, 201);
    const kept = await client.send(new GetItemCommand({
      TableName: "Bulk", Key: { pk: { S: "kept" } },
    }));
    assert.equal(kept.Item.v.S, "old");  // its condition was false

    const reports = listFiles(join(s3dir, "output", "reports", "Bulk"));
    assert.ok(reports.length >= 1);
    const entries = reports.flatMap((f) =>
      readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l)));
    assert.deepEqual(entries.map((e) => e.OutputType).sort(),
                     ["CONDITION_CHECK_FAILURE", "ERROR"]);
    const failed = entries.find((e) => e.OutputType === "CONDITION_CHECK_FAILURE");
    assert.equal(failed.ExistingItem.v.S, "old");
    assert.equal(failed.ObjectKey, "data/part-2.json.gz");

    // The same ClientToken and parameters: the same operation.
    const again = await start("Bulk", "data/", { ClientToken: "load-1" });
    assert.equal(again.BulkOperationDescription.BulkOperationArn, arn);

    const listed = await client.send(new ListBulkOperationsCommand({}));
    assert.ok(listed.BulkOperationsSummaryList.some((s) => s.BulkOperationArn === arn));
  });

  test("cancels a running operation", async () => {
    await createTable("Slow");
    const lines = [];
    for (let i = 0; i < 30000; i++) lines.push({ Item: { pk: { S: `p${i}` } } });
    writeObject("input", "slow/part-1.json.gz", lines);
    // 30,000 units at 1,024 a second: about half a minute.
    const started = await start("Slow", "slow/", { MaxWriteRequestUnits: 1024 });
    const arn = started.BulkOperationDescription.BulkOperationArn;
    const cancelled = await client.send(new CancelBulkOperationCommand({ BulkOperationArn: arn }));
    assert.equal(cancelled.BulkOperationArn, arn);
    assert.equal(cancelled.BulkOperationStatus, "CANCELLING");
    await assert.rejects(
      waitUntilBulkOperationCompleted({ client, ...WAIT }, { BulkOperationArn: arn }),
      (err) => {
        assert.match(String(err.message), /CANCELLED/);
        return true;
      });
    const d = (await client.send(new DescribeBulkOperationCommand({ BulkOperationArn: arn })))
      .BulkOperationDescription;
    assert.equal(d.BulkOperationStatus, "CANCELLED");
    assert.ok(d.ProcessedItemCount < 30000);
  });

  test("answers DynamoDB's errors for a bad request", async () => {
    await assert.rejects(start("Bulk", "data/", { MaxWriteRequestUnits: 10 }), (err) => {
      assert.equal(err.name, "ValidationException");
      assert.match(err.message, /greater than or equal to 1024/);
      return true;
    });
    await assert.rejects(start("NoSuchTable", "data/"), (err) => {
      assert.equal(err.name, "ResourceNotFoundException");
      return true;
    });
    await assert.rejects(client.send(new DescribeBulkOperationCommand({
      BulkOperationArn: "arn:aws:dynamodb:us-east-1:123456789012:table/Bulk/bulk-operation/x",
    })), (err) => {
      assert.equal(err.name, "ResourceNotFoundException");
      return true;
    });
    await assert.rejects(start("Bulk", "data/", { ClientToken: "load-1", PerformanceTier: "ACCELERATED" }),
                         (err) => {
                           assert.equal(err.name, "IdempotentParameterMismatchException");
                           return true;
                         });
  });
});
