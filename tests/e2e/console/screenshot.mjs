// tests/e2e/console/screenshot.mjs: takes docs/console-heat.png, the
// console's partition-heat view during the seed's write-sharding scenario
// (docs/simulate.md, `simulate write-sharding`): OPEN orders written to a
// table whose GSI2_unsharded is keyed by Status, so that every new order's
// index entry lands on one GSI partition (the hot one, throttled at its
// 1,000 WCU), beside GSI2_rand_13, the same index write-sharded over 13
// random suffixes as the seed's formula says. Not run by the test suite.
//
//   cd tests/e2e/console && npm ci && DYNAROCK_BIN=../../../build/dynarock node screenshot.mjs [OUT.png]
//
// The server runs on a simulated clock; each simulated second gets its
// orders, then the script waits for the page's next poll, so the timeline
// has one sample per second.

import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

import { api, launchBrowser, ok, openConsole, startServer } from "./console_harness.mjs";

const out = resolve(process.argv[2] ?? resolve(dirname(fileURLToPath(import.meta.url)), "../../../docs/console-heat.png"));
const SHARDS = 13;
const server = await startServer(["--clock", "simulated"]);
const browser = await launchBrowser();
try {
  const url = server.url;
  await ok(url, "CreateTable", {
    TableName: "Orders",
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: "PK", AttributeType: "S" }, { AttributeName: "Status", AttributeType: "S" },
      { AttributeName: "OrderDate", AttributeType: "S" }, { AttributeName: "Shard", AttributeType: "S" },
      { AttributeName: "GSI2SK", AttributeType: "S" },
    ],
    KeySchema: [{ AttributeName: "PK", KeyType: "HASH" }],
    GlobalSecondaryIndexes: [
      { IndexName: "GSI2_unsharded", KeySchema: [{ AttributeName: "Status", KeyType: "HASH" }, { AttributeName: "OrderDate", KeyType: "RANGE" }], Projection: { ProjectionType: "KEYS_ONLY" } },
      { IndexName: `GSI2_rand_${SHARDS}`, KeySchema: [{ AttributeName: "Shard", KeyType: "HASH" }, { AttributeName: "GSI2SK", KeyType: "RANGE" }], Projection: { ProjectionType: "KEYS_ONLY" } },
    ],
  });
  const page = await openConsole(browser, url, "heat?table=Orders");
  await page.setViewport({ width: 1100, height: 900 });
  await page.select("#heat-index", "GSI2_unsharded");
  await page.waitForSelector("#heat-cells .cell");

  // Orders per simulated second: a ramp past the GSI partition's 1,000 WCU,
  // a plateau above it (throttled), a quieter spell under it, a second peak.
  const rates = [
    ...[100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400, 1500],
    ...Array(8).fill(1600), ...Array(8).fill(600), ...[1000, 1400, 1800, 1800, 1800, 1400],
  ];
  let id = 0;
  let throttled = 0;
  for (const rate of rates) {
    await ok(url, "DynamoRock_20251121.AdvanceClock", { Seconds: 1 });
    const puts = [];
    for (let i = 0; i < rate; i++, id++) {
      const day = String((id % 28) + 1).padStart(2, "0");
      puts.push({
        TableName: "Orders",
        Item: {
          PK: { S: `O#${String(id).padStart(8, "0")}` }, SK: { S: `C#${id % 5000}` },
          Status: { S: "OPEN" }, OrderDate: { S: `2026-11-${day}` },
          Shard: { S: String(Math.floor(Math.random() * SHARDS)) }, GSI2SK: { S: `OPEN#2026-11-${day}` },
          Pad: { S: "x".repeat(60) },
        },
      });
    }
    // 16 at a time.
    for (let i = 0; i < puts.length; i += 16) {
      const answers = await Promise.all(puts.slice(i, i + 16).map((p) => api(url, "PutItem", p)));
      throttled += answers.filter((a) => a.status === 400).length;
    }
    // The page's next poll draws this second.
    await new Promise((r) => setTimeout(r, 1300));
  }
  await page.waitForSelector("#heat-cells .cell.throttled");
  await page.evaluate(() => window.scrollTo(0, 0));
  const view = await page.$("#view-heat");
  const box = await view.boundingBox();
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1100, height: Math.ceil(box.y + box.height + 8) } });
  console.log(`${out}: ${id} orders over ${rates.length} simulated seconds, ${throttled} throttled`);
} finally {
  await browser.close();
  server.proc.kill("SIGTERM");
}
