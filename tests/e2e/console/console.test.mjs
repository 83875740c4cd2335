// tests/e2e/console/console.test.mjs
//
// The web console (GET /console/, docs/console.md) in Debian's headless
// Chromium: each view renders from a server with known tables and load; the
// partition view turns hot under a hot-key load and shows the throttles;
// values from the data show as text; console off / on / read-only /
// --console-write / strict authentication.
//
//   cd tests/e2e/console && npm ci && DYNAROCK_BIN=../../../build/dynarock node --test

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { api, launchBrowser, ok, openConsole, startServer, waitActive } from "./console_harness.mjs";

const SCRIPT = "<script>window.__pwned = 1</script>";
const IMG = '"><img src=x onerror="window.__pwned = 2">';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

async function withServer(args, body) {
  const server = await startServer(args);
  try {
    return await body(server.url);
  } finally {
    server.proc.kill("SIGTERM");
  }
}

const text = (page, selector) => page.$eval(selector, (e) => e.textContent);
const pwned = (page) => page.evaluate(() => window.__pwned);

async function ordersTable(url) {
  await ok(url, "CreateTable", {
    TableName: "orders",
    AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }, { AttributeName: "status", AttributeType: "S" }],
    KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
    BillingMode: "PAY_PER_REQUEST",
    GlobalSecondaryIndexes: [{ IndexName: "by_status", KeySchema: [{ AttributeName: "status", KeyType: "HASH" }], Projection: { ProjectionType: "ALL" } }],
    StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" },
  });
  await waitActive(url, "orders");
  await ok(url, "UpdateTimeToLive", { TableName: "orders", TimeToLiveSpecification: { Enabled: true, AttributeName: "expires" } });
  for (let i = 0; i < 30; i++) {
    await ok(url, "PutItem", { TableName: "orders", Item: { pk: { S: `order-${i}` }, status: { S: i % 3 ? "OPEN" : "CLOSED" }, n: { N: String(i) } } });
  }
  // Values (and an attribute name) a page that parsed them as markup would run.
  await ok(url, "PutItem", { TableName: "orders", Item: { pk: { S: SCRIPT }, status: { S: IMG }, "<b>name</b>": { S: IMG } } });
}

describe("console views", () => {
  test("each view renders from a server with known tables and load; values stay text", async () => {
    await withServer(["--clock", "simulated"], async (url) => {
      await ordersTable(url);
      const page = await openConsole(browser, url, "tables");

      // Tables and indexes.
      await page.waitForSelector('#tables-list tr[data-table="orders"]');
      const row = await text(page, '#tables-list tr[data-table="orders"]');
      assert.match(row, /ACTIVE/);
      assert.match(row, /pk \(S, HASH\)/);
      assert.match(row, /PAY_PER_REQUEST/);
      assert.match(row, /31/);  // items
      assert.match(row, /GSI by_status: ACTIVE/);
      assert.match(await text(page, "#clock"), /^simulated clock: /);

      // Items: a scan in pages, an item's JSON; the markup stays text.
      await page.click('#tabs button[data-view="items"]');
      await page.select("#items-table", "orders");
      await page.$eval("#items-limit", (e) => { e.value = "20"; });
      await page.click('#item-query button[type="submit"]');
      await page.waitForFunction(() => document.querySelectorAll("#items-list tbody tr").length === 20);
      assert.match(await text(page, "#items-summary"), /20 items \(20 scanned\); more/);
      const firstPage = await page.$$eval("#items-list td", (tds) => tds.map((t) => t.textContent));
      await page.click("#items-next");
      await page.waitForFunction(() => document.querySelectorAll("#items-list tbody tr").length === 11);
      assert.match(await text(page, "#items-summary"), /last page/);
      const cells = [...firstPage, ...await page.$$eval("#items-list td", (tds) => tds.map((t) => t.textContent))];
      assert.ok(cells.includes(SCRIPT), "the <script> value shows as text");
      assert.ok(cells.includes(IMG), "the img markup shows as text");
      // The marked-up item, as the only one of a Query of its key: its
      // attribute name as a column header, its JSON.
      await page.select("#items-op", "Query");
      await page.$eval("#items-key", (e) => { e.value = "pk = :pk"; });
      await page.$eval("#items-values", (e, s) => { e.value = JSON.stringify({ ":pk": { S: s } }); }, SCRIPT);
      await page.click('#item-query button[type="submit"]');
      await page.waitForFunction(() => /^1 items/.test(document.querySelector("#items-summary").textContent));
      const headers = await page.$$eval("#items-list th", (ths) => ths.map((t) => t.textContent));
      assert.ok(headers.includes("<b>name</b>"));
      const rowIndex = await page.$$eval("#items-list tbody tr", (rows, s) =>
        rows.findIndex((r) => [...r.cells].some((c) => c.textContent === s)), SCRIPT);
      await page.click(`#items-list tbody tr[data-row="${rowIndex}"]`);
      const json = JSON.parse(await text(page, "#item-json"));
      assert.deepEqual(json.pk, { S: SCRIPT });
      assert.equal(await page.$$eval("img, b, main script", (n) => n.length), 0);
      assert.equal(await pwned(page), undefined);

      // A Query of the index with a key condition and a filter.
      await page.select("#items-index", "by_status");
      await page.select("#items-op", "Query");
      await page.$eval("#items-key", (e) => { e.value = "#s = :s"; });
      await page.$eval("#items-filter", (e) => { e.value = "n < :n"; });
      await page.$eval("#items-names", (e) => { e.value = '{"#s":"status"}'; });
      await page.$eval("#items-values", (e) => { e.value = '{":s":{"S":"OPEN"},":n":{"N":"10"}}'; });
      await page.click('#item-query button[type="submit"]');
      await page.waitForFunction(() => /^6 items/.test(document.querySelector("#items-summary").textContent));

      // Partition heat: a cell per partition, as DescribeCapacity has them.
      const capacity = await ok(url, "DynamoRock_20251121.DescribeCapacity", { TableName: "orders" });
      await page.click('#tabs button[data-view="heat"]');
      await page.waitForFunction((n) => document.querySelectorAll("#heat-cells .cell").length === n, {}, capacity.Table.Partitions.length);
      assert.equal(await page.$$eval("#heat-timeline polyline", (p) => p.length), 4);
      // The index's view (as many partitions as the table's, so its hot
      // keys tell that it is drawn).
      await page.select("#heat-index", "by_status");
      await page.waitForFunction(() => [...document.querySelectorAll("#heat-hotkeys td")].some((td) => td.textContent === "{S:OPEN}"));
      assert.equal(await page.$$eval("#heat-cells .cell", (c) => c.length), capacity.GlobalSecondaryIndexes[0].Partitions.length);
      const keys = await page.$$eval("#heat-hotkeys td", (tds) => tds.map((t) => t.textContent));
      assert.ok(keys.includes("{S:OPEN}"), `GSI hot keys: ${keys}`);
      assert.ok(keys.some((k) => k.includes("<img")), "a hot key holding markup shows as text");

      // Indexes, stream shards, TTL.
      await page.click('#tabs button[data-view="indexes"]');
      await page.select("#idx-table", "orders");
      await page.waitForSelector('#idx-gsis tr[data-index="by_status"]');
      assert.match(await text(page, '#idx-gsis tr[data-index="by_status"]'), /ACTIVE.*no.*31 of 31/);
      await page.waitForFunction(() => /propagation: 0 records pending, 31 applied/.test(document.querySelector("#idx-propagation").textContent));
      await page.waitForSelector("#idx-shards li[data-shard]");
      assert.match(await text(page, "#idx-shards"), /open shardId-/);
      assert.match(await text(page, "#idx-ttl"), /ENABLED on attribute expires/);
      // TTL deletions per second: five items already expired on the
      // server's clock; the sweep an AdvanceClock runs deletes them, counted
      // in the clock second it ran in (the view refreshes every second).
      const now = (await ok(url, "DynamoRock_20251121.DescribeClock", {})).Now;
      for (let i = 0; i < 5; i++) {
        await ok(url, "PutItem", { TableName: "orders", Item: { pk: { S: `expired-${i}` }, expires: { N: String(Math.floor(now) - 60) } } });
      }
      await ok(url, "DynamoRock_20251121.AdvanceClock", { Seconds: 2 });
      await page.waitForFunction(() => / 5 in all$/.test(document.querySelector("#idx-ttl").textContent));
      assert.match(await text(page, "#idx-ttl"), /deletions: 5\/s now, 0\.08\/s over the last minute, 5 in all$/);

      // Cost: both modes, from the server's price table.
      const cost = await fetch(`${url}/console/api/cost`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "AWS4-HMAC-SHA256 Credential=console/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00" },
        body: JSON.stringify({ TableName: "orders" }),
      }).then((r) => r.json());
      await page.click('#tabs button[data-view="cost"]');
      await page.select("#cost-table", "orders");
      await page.waitForSelector('#cost-table-view tr[data-mode="provisioned"]');
      assert.match(await text(page, '#cost-table-view tr[data-mode="on-demand"]'), new RegExp(`\\${cost.OnDemandText}$`));
      assert.match(await text(page, '#cost-table-view tr[data-mode="provisioned"]'), new RegExp(`\\${cost.ProvisionedText}$`));
      assert.match(await text(page, "#cost-cheaper"), /^Cheaper: (on-demand|provisioned)$/);
      assert.match(await text(page, "#cost-source"), /us-east-1 STANDARD list prices of \d{4}-\d\d-\d\d \(https:/);
      assert.equal(await pwned(page), undefined);
      await page.close();
    });
  });

  test("the partition view turns hot under a hot-key load and shows the throttles", async () => {
    // A simulated clock: no refill while the test looks, so the second stays hot.
    await withServer(["--clock", "simulated"], async (url) => {
      await ok(url, "CreateTable", {
        TableName: "hot", BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
      });
      const page = await openConsole(browser, url, "heat?table=hot");
      await page.waitForSelector("#heat-cells .cell");
      assert.equal(await page.$$eval("#heat-cells .cell.throttled", (c) => c.length), 0);

      // 300 KB items on one key: 301 WCU each against the partition's
      // write bucket, which starts full at 1,000 units and admits while its
      // balance is positive, charging the whole cost (engine/capacity/
      // token_bucket.h): 699, 398, 97, -204, so the fifth put is throttled.
      const big = "x".repeat(300 * 1024);
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await api(url, "PutItem", { TableName: "hot", Item: { pk: { S: "hot-key" }, v: { S: big } } })).status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 400]);

      await page.waitForSelector("#heat-cells .cell.throttled");
      const hot = await page.$$eval("#heat-cells .cell", (cells) => cells.map((c) => ({
        ratio: Number(c.dataset.ratio), throttled: c.classList.contains("throttled"), colour: c.style.background,
      })));
      const hottest = hot.reduce((a, b) => (b.ratio > a.ratio ? b : a));
      assert.ok(hottest.ratio >= 0.8, `the hot partition is near its ceiling: ${JSON.stringify(hot)}`);
      assert.ok(hottest.throttled);
      assert.equal(hot.filter((c) => c.ratio > 0).length, 1, "one partition takes the load");
      assert.match(await text(page, "#heat-summary"), /1 hot .*1 throttled in the last second/);
      const reasons = await text(page, "#heat-reasons");
      assert.match(reasons, /write capacity .*[1-9]\d* requests, [1-9]/);
      const keys = await page.$$eval("#heat-hotkeys td", (tds) => tds.map((t) => t.textContent));
      assert.equal(keys[0], "{S:hot-key}");
      // The timeline's throttled-writes line left the axis.
      const line = await page.$eval('#heat-timeline polyline[data-series="thw"]', (p) => p.getAttribute("points"));
      const ys = line.split(" ").map((pt) => Number(pt.split(",")[1]));
      assert.ok(Math.min(...ys) < 200, line);
      await page.close();
    });
  });
});

describe("console access", () => {
  test("off: /console/ is not served", async () => {
    await withServer(["--console", "off"], async (url) => {
      assert.equal((await fetch(`${url}/console/`)).status, 404);
      assert.equal((await fetch(`${url}/`)).status, 200);
    });
  });

  test("on by default, read-only: the page's writes are refused", async () => {
    await withServer([], async (url) => {
      const r = await fetch(`${url}/console/`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-security-policy"), /script-src 'self'/);
      await ordersTable(url);
      const page = await openConsole(browser, url, "items?table=orders");
      await page.$eval("#put-json", (e) => { e.value = '{"pk":{"S":"from-console"}}'; });
      await page.click("#put-item");
      await page.waitForFunction(() => document.querySelector("#put-result").textContent !== "");
      assert.match(await text(page, "#put-result"), /^AccessDeniedException: The dynarock console is read-only/);
      const got = await ok(url, "GetItem", { TableName: "orders", Key: { pk: { S: "from-console" } } });
      assert.equal(got.Item, undefined);
      await page.close();
    });
  });

  test("--console-write: the page may write", async () => {
    await withServer(["--console-write"], async (url) => {
      await ordersTable(url);
      const page = await openConsole(browser, url, "items?table=orders");
      await page.$eval("#put-json", (e) => { e.value = '{"pk":{"S":"from-console"}}'; });
      await page.click("#put-item");
      await page.waitForFunction(() => document.querySelector("#put-result").textContent === "written");
      const got = await ok(url, "GetItem", { TableName: "orders", Key: { pk: { S: "from-console" } } });
      assert.deepEqual(got.Item, { pk: { S: "from-console" } });
      await page.close();
    });
  });

  test("strict authentication: the page's calls need the server's credentials", async () => {
    const dir = mkdtempSync(join(tmpdir(), "dynarock-console-"));
    const authFile = join(dir, "auth");
    writeFileSync(authFile, "console s3cret-key\n");
    await withServer(["--auth-file", authFile], async (url) => {
      // Unsigned calls are refused, to the page's files and API alike.
      assert.equal((await api(url, "ListTables", {})).status, 400);
      assert.equal((await fetch(`${url}/console/`)).status, 200);  // the files hold no data
      const cost = await fetch(`${url}/console/api/cost`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"TableName":"strict"}' });
      assert.equal(cost.status, 400);

      // A wrong secret: the page says why.
      let page = await openConsole(browser, url, "tables", "wrong-secret");
      assert.match(await text(page, "#status"), /^InvalidSignatureException: The request signature we calculated does not match/);
      assert.equal(await text(page, "#clock"), "clock: -");
      await page.close();

      // The right one: the page signs with SigV4 (WebCrypto) and sees the
      // caller's tables; its signer also creates one through the API.
      page = await openConsole(browser, url, "tables", "s3cret-key");
      const created = await page.evaluate(async () => {
        const body = JSON.stringify({
          TableName: "strict", BillingMode: "PAY_PER_REQUEST",
          AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        });
        const headers = await SigV4.sign("/", { "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": "DynamoDB_20120810.CreateTable" }, body, state.creds);
        return (await fetch("/", { method: "POST", headers, body })).status;
      });
      assert.equal(created, 200);
      await page.reload();
      await page.waitForSelector('#tables-list tr[data-table="strict"]');
      assert.equal(await text(page, "#status"), "");
      await page.close();
    });
  });
});
