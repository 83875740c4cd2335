// dynarock's control plane with the AWS SDK for JavaScript v3: tags, table
// settings (TableClass, DeletionProtectionEnabled, OnDemandThroughput,
// WarmThroughput), on-demand backups and restores, point-in-time recovery,
// export to and import from the directory standing for S3, contributor
// insights, DescribeEndpoints, and an operation dynarock does not serve.
//
// Starts its own `dynarock serve --in-memory --port 0 --s3-dir <tmp>`
// ($DYNAROCK_BIN, else build/dynarock in the repository).
// Run: cd tests/e2e/js && npm ci && node --test

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { startServer } from "./dynarock_server.mjs";

import {
  BackupNotFoundException,
  BatchWriteItemCommand,
  CreateBackupCommand,
  CreateTableCommand,
  DeleteBackupCommand,
  DeleteTableCommand,
  DescribeBackupCommand,
  DescribeContinuousBackupsCommand,
  DescribeContributorInsightsCommand,
  DescribeEndpointsCommand,
  DescribeExportCommand,
  DescribeImportCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ExportTableToPointInTimeCommand,
  ImportTableCommand,
  ListBackupsCommand,
  ListContributorInsightsCommand,
  ListTagsOfResourceCommand,
  RestoreTableFromBackupCommand,
  RestoreTableToPointInTimeCommand,
  ScanCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateContinuousBackupsCommand,
  UpdateContributorInsightsCommand,
  UpdateTableCommand,
  UpdateTableReplicaAutoScalingCommand,
  paginateScan,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from "@aws-sdk/client-dynamodb";

const WAIT = { minDelay: 1, maxDelay: 1, maxWaitTime: 30 };

let server = null;
let client = null;
let s3dir = null;


let counter = 0;
function tableName(prefix) {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 10)}`;
}

const KEY = {
  KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
  AttributeDefinitions: [
    { AttributeName: "pk", AttributeType: "S" },
    { AttributeName: "g", AttributeType: "S" },
  ],
  GlobalSecondaryIndexes: [{
    IndexName: "ByG",
    KeySchema: [{ AttributeName: "g", KeyType: "HASH" }],
    Projection: { ProjectionType: "ALL" },
  }],
};

async function createTable(name, extra = {}) {
  await client.send(new CreateTableCommand({
    TableName: name, BillingMode: "PAY_PER_REQUEST", ...KEY, ...extra,
  }));
  await waitUntilTableExists({ client, ...WAIT }, { TableName: name });
  return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
}

async function fill(name, n) {
  for (let i = 0; i < n; i += 25) {
    const puts = [];
    for (let k = i; k < Math.min(n, i + 25); k++) {
      puts.push({ PutRequest: { Item: { pk: { S: `k${k}` }, g: { S: `g${k % 3}` },
                                       n: { N: String(k) } } } });
    }
    const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [name]: puts } }));
    assert.deepEqual(out.UnprocessedItems ?? {}, {});
  }
}

async function items(name, indexName) {
  const out = [];
  for await (const page of paginateScan({ client }, { TableName: name, IndexName: indexName })) {
    out.push(...page.Items);
  }
  return out.map((item) => JSON.stringify(item, Object.keys(item).sort())).sort();
}

async function rejectsWith(promise, name, message) {
  await assert.rejects(promise, (err) => {
    assert.equal(err.name, name, `${err.name}: ${err.message}`);
    assert.equal(err.$metadata.httpStatusCode, 400);
    if (message instanceof RegExp) assert.match(err.message, message);
    else if (message !== undefined) assert.equal(err.message, message);
    return true;
  });
}

async function until(what, check) {
  for (let i = 0; i < 600; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

before(async () => {
  s3dir = mkdtempSync(join(tmpdir(), "dynarock-js-s3-"));
  mkdirSync(join(s3dir, "bucket"));
  server = await startServer(["--s3-dir", s3dir]);
  client = new DynamoDBClient({
    endpoint: server.url,
    region: "us-east-1",
    credentials: { accessKeyId: "AKIDJSCONTROL", secretAccessKey: "secret" },
    maxAttempts: 1,
  });
});

after(async () => {
  if (server) {
    server.proc.kill("SIGTERM");
    const [code] = await once(server.proc, "exit");
    assert.equal(code, 0);
  }
  if (s3dir) rmSync(s3dir, { recursive: true, force: true });
});

describe("tags", () => {
  test("Tags in CreateTable, TagResource, UntagResource, ListTagsOfResource", async () => {
    const name = tableName("tags");
    const arn = (await createTable(name, { Tags: [{ Key: "team", Value: "a" }] })).TableArn;
    await client.send(new TagResourceCommand({
      ResourceArn: arn, Tags: [{ Key: "env", Value: "dev" }, { Key: "team", Value: "b" }],
    }));
    let tags = (await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn }))).Tags;
    assert.deepEqual(tags.sort((a, b) => a.Key.localeCompare(b.Key)),
                     [{ Key: "env", Value: "dev" }, { Key: "team", Value: "b" }]);
    await client.send(new UntagResourceCommand({ ResourceArn: arn, TagKeys: ["team"] }));
    tags = (await client.send(new ListTagsOfResourceCommand({ ResourceArn: arn }))).Tags;
    assert.deepEqual(tags, [{ Key: "env", Value: "dev" }]);

    await rejectsWith(client.send(new TagResourceCommand({ ResourceArn: arn, Tags: [] })),
                      "ValidationException", "Atleast one Tag needs to be provided as Input.");
    const many = Array.from({ length: 50 }, (_, i) => ({ Key: `k${i}`, Value: "v" }));
    await rejectsWith(client.send(new TagResourceCommand({ ResourceArn: arn, Tags: many })),
                      "ValidationException", /50/);
    await rejectsWith(
      client.send(new TagResourceCommand({ ResourceArn: arn,
                                           Tags: [{ Key: "aws:x", Value: "v" }] })),
      "ValidationException", /aws:/);
    await rejectsWith(client.send(new ListTagsOfResourceCommand({ ResourceArn: `${arn}x` })),
                      "ResourceNotFoundException", /not found/);
  });
});

describe("table settings", () => {
  test("TableClass, DeletionProtectionEnabled, OnDemandThroughput, WarmThroughput", async () => {
    const name = tableName("settings");
    const table = await createTable(name, {
      TableClass: "STANDARD_INFREQUENT_ACCESS",
      DeletionProtectionEnabled: true,
      OnDemandThroughput: { MaxReadRequestUnits: 100, MaxWriteRequestUnits: 50 },
      WarmThroughput: { ReadUnitsPerSecond: 13000 },
    });
    assert.equal(table.TableClassSummary.TableClass, "STANDARD_INFREQUENT_ACCESS");
    assert.equal(table.DeletionProtectionEnabled, true);
    assert.deepEqual(table.OnDemandThroughput,
                     { MaxReadRequestUnits: 100, MaxWriteRequestUnits: 50 });
    assert.equal(table.WarmThroughput.ReadUnitsPerSecond, 13000);
    assert.equal(table.WarmThroughput.Status, "ACTIVE");

    await rejectsWith(client.send(new DeleteTableCommand({ TableName: name })),
                      "ValidationException",
                      "Resource cannot be deleted as it is currently protected against " +
                      "deletion. Disable deletion protection first.");
    await client.send(new UpdateTableCommand({ TableName: name, TableClass: "STANDARD" }));
    await waitUntilTableExists({ client, ...WAIT }, { TableName: name });
    await client.send(new UpdateTableCommand({ TableName: name,
                                               DeletionProtectionEnabled: false }));
    await waitUntilTableExists({ client, ...WAIT }, { TableName: name });
    const updated = (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
    assert.equal(updated.TableClassSummary.TableClass, "STANDARD");
    assert.equal(updated.DeletionProtectionEnabled, false);
    await client.send(new DeleteTableCommand({ TableName: name }));
    await waitUntilTableNotExists({ client, ...WAIT }, { TableName: name });
  });
});

describe("backups and point-in-time recovery", () => {
  test("CreateBackup, ListBackups, RestoreTableFromBackup, DeleteBackup", async () => {
    const name = tableName("backup");
    await createTable(name);
    await fill(name, 60);
    const created = await client.send(new CreateBackupCommand({ TableName: name,
                                                                BackupName: "nightly" }));
    const arn = created.BackupDetails.BackupArn;
    const ready = await until("the backup", async () => {
      const d = await client.send(new DescribeBackupCommand({ BackupArn: arn }));
      return d.BackupDescription.BackupDetails.BackupStatus === "AVAILABLE" && d;
    });
    assert.equal(ready.BackupDescription.SourceTableDetails.ItemCount, 60);
    assert.ok(ready.BackupDescription.BackupDetails.BackupCreationDateTime instanceof Date);

    const listed = await client.send(new ListBackupsCommand({ TableName: name }));
    assert.deepEqual(listed.BackupSummaries.map((b) => b.BackupArn), [arn]);

    const target = tableName("restored");
    const restored = await client.send(new RestoreTableFromBackupCommand({
      BackupArn: arn, TargetTableName: target,
    }));
    assert.equal(restored.TableDescription.RestoreSummary.SourceBackupArn, arn);
    await waitUntilTableExists({ client, ...WAIT }, { TableName: target });
    assert.deepEqual(await items(target), await items(name));
    assert.deepEqual(await items(target, "ByG"), await items(name, "ByG"));

    await client.send(new DeleteBackupCommand({ BackupArn: arn }));
    await assert.rejects(client.send(new DescribeBackupCommand({ BackupArn: arn })),
                         (err) => err instanceof BackupNotFoundException);
  });

  test("UpdateContinuousBackups, RestoreTableToPointInTime", async () => {
    const name = tableName("pitr");
    await createTable(name);
    const on = await client.send(new UpdateContinuousBackupsCommand({
      TableName: name,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    }));
    assert.equal(on.ContinuousBackupsDescription.PointInTimeRecoveryDescription
      .PointInTimeRecoveryStatus, "ENABLED");
    await fill(name, 10);
    const described = await client.send(new DescribeContinuousBackupsCommand({ TableName: name }));
    const window = described.ContinuousBackupsDescription.PointInTimeRecoveryDescription;
    assert.ok(window.LatestRestorableDateTime instanceof Date);
    assert.ok(window.EarliestRestorableDateTime <= window.LatestRestorableDateTime);

    const target = tableName("pitr-restored");
    await client.send(new RestoreTableToPointInTimeCommand({
      SourceTableName: name, TargetTableName: target, UseLatestRestorableTime: true,
    }));
    await waitUntilTableExists({ client, ...WAIT }, { TableName: target });
    assert.deepEqual(await items(target), await items(name));
  });

  test("ExportTableToPointInTime then ImportTable of its files", async () => {
    const name = tableName("export");
    const arn = (await createTable(name)).TableArn;
    await client.send(new UpdateContinuousBackupsCommand({
      TableName: name,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    }));
    await fill(name, 30);
    const started = await client.send(new ExportTableToPointInTimeCommand({
      TableArn: arn, S3Bucket: "bucket", S3Prefix: "js",
    }));
    const exportArn = started.ExportDescription.ExportArn;
    const done = await until("the export", async () => {
      const d = await client.send(new DescribeExportCommand({ ExportArn: exportArn }));
      return d.ExportDescription.ExportStatus !== "IN_PROGRESS" && d.ExportDescription;
    });
    assert.equal(done.ExportStatus, "COMPLETED", done.FailureMessage);
    assert.equal(done.ItemCount, 30);
    const exportDir = join(s3dir, "bucket", "js", "AWSDynamoDB");
    assert.equal(readdirSync(exportDir).length, 1);

    const target = tableName("imported");
    const id = exportArn.split("/").pop();
    const imported = await client.send(new ImportTableCommand({
      S3BucketSource: { S3Bucket: "bucket", S3KeyPrefix: `js/AWSDynamoDB/${id}/data/` },
      InputFormat: "DYNAMODB_JSON",
      InputCompressionType: "GZIP",
      TableCreationParameters: { TableName: target, BillingMode: "PAY_PER_REQUEST", ...KEY },
    }));
    const importArn = imported.ImportTableDescription.ImportArn;
    const finished = await until("the import", async () => {
      const d = await client.send(new DescribeImportCommand({ ImportArn: importArn }));
      return d.ImportTableDescription.ImportStatus !== "IN_PROGRESS" &&
             d.ImportTableDescription;
    });
    assert.equal(finished.ImportStatus, "COMPLETED", finished.FailureMessage);
    assert.deepEqual(await items(target), await items(name));
  });
});

describe("other control-plane operations", () => {
  test("contributor insights for a table and its GSI", async () => {
    const name = tableName("insights");
    await createTable(name);
    const updated = await client.send(new UpdateContributorInsightsCommand({
      TableName: name, ContributorInsightsAction: "ENABLE",
    }));
    assert.equal(updated.ContributorInsightsStatus, "ENABLING");
    assert.equal(updated.ContributorInsightsMode, "ACCESSED_AND_THROTTLED_KEYS");
    const gsi = await client.send(new UpdateContributorInsightsCommand({
      TableName: name, IndexName: "ByG", ContributorInsightsAction: "ENABLE",
      ContributorInsightsMode: "THROTTLED_KEYS",
    }));
    assert.equal(gsi.ContributorInsightsMode, "THROTTLED_KEYS");
    const table = await client.send(new DescribeContributorInsightsCommand({ TableName: name }));
    assert.equal(table.ContributorInsightsStatus, "ENABLED");
    // A partition key only: the accessed and the throttled partition-key rules.
    assert.deepEqual(table.ContributorInsightsRuleList.map((r) => r.split("-")[1]).sort(),
                     ["PKC", "PKT"]);
    const index = await client.send(new DescribeContributorInsightsCommand({
      TableName: name, IndexName: "ByG",
    }));
    assert.equal(index.ContributorInsightsStatus, "ENABLED");
    assert.equal(index.ContributorInsightsMode, "THROTTLED_KEYS");
    // Throttled keys only: the most-throttled rule of the partition key.
    assert.deepEqual(index.ContributorInsightsRuleList.map((r) => r.split("-")[1]), ["PKT"]);
    const listed = await client.send(new ListContributorInsightsCommand({ TableName: name }));
    assert.deepEqual(
      listed.ContributorInsightsSummaries
        .map((s) => `${s.IndexName ?? ""}:${s.ContributorInsightsMode}`).sort(),
      [":ACCESSED_AND_THROTTLED_KEYS", "ByG:THROTTLED_KEYS"]);
  });

  test("DescribeEndpoints, and an operation dynarock does not serve", async () => {
    const endpoints = await client.send(new DescribeEndpointsCommand({}));
    assert.deepEqual(endpoints.Endpoints,
                     [{ Address: "dynamodb.us-east-1.amazonaws.com", CachePeriodInMinutes: 1440 }]);
    await rejectsWith(
      client.send(new UpdateTableReplicaAutoScalingCommand({ TableName: "t-unserved" })),
      "UnknownOperationException", "An unknown operation was requested.");
  });
});
