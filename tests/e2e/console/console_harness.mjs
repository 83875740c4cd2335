// tests/e2e/console/console_harness.mjs
//
// What the console tests and the screenshot script share: a dynarock server
// (tests/e2e/js/dynarock_server.mjs: $DYNAROCK_BIN, else build/dynarock),
// DynamoDB calls from Node (unsigned: the server is not strict), and Debian's
// headless Chromium ($CHROMIUM_BIN, else /usr/bin/chromium) through
// puppeteer-core.

import puppeteer from "puppeteer-core";
import { startServer } from "../js/dynarock_server.mjs";

export { startServer };

export const ACCESS_KEY = "console";
export const REGION = "us-east-1";

// One DynamoDB call as ACCESS_KEY in REGION; resolves { status, body }.
export async function api(url, operation, body) {
  const target = operation.includes("_") ? operation : `DynamoDB_20120810.${operation}`;
  const response = await fetch(`${url}/`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-amz-json-1.0",
      "X-Amz-Target": target,
      Authorization: `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/20250101/${REGION}/dynamodb/aws4_request, SignedHeaders=host, Signature=00`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

// As api, but a non-200 answer throws.
export async function ok(url, operation, body) {
  const r = await api(url, operation, body);
  if (r.status !== 200) throw new Error(`${operation}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export async function launchBrowser() {
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM_BIN ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

// Resolves once DescribeTable says `table` is ACTIVE (a real clock's
// CreateTable answers CREATING, and item calls until then are refused).
export async function waitActive(url, table) {
  for (let i = 0; i < 200; i++) {
    const { Table } = await ok(url, "DescribeTable", { TableName: table });
    if (Table.TableStatus === "ACTIVE" && (Table.GlobalSecondaryIndexes ?? []).every((g) => g.IndexStatus === "ACTIVE")) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${table} not ACTIVE after 10 s`);
}

// Opens the console at `hash` ("heat?table=t") with the test's credentials
// (and `secret` for a strict server) in the tab's sessionStorage before the
// page's script reads them; resolves the page once the first refresh has
// read the server's clock, or once the page reports an error (#status).
export async function openConsole(browser, url, hash = "", secret = "") {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.evaluateOnNewDocument((key, region, secretKey) => {
    try {
      sessionStorage.setItem("dynarock.creds", JSON.stringify({ accessKey: key, region, secretKey }));
    } catch {
      // a document without storage (about:blank)
    }
  }, ACCESS_KEY, REGION, secret);
  await page.goto(`${url}/console/#${hash}`);
  await page.waitForFunction(() => document.querySelector("#clock").textContent.includes("clock: 2") ||
    document.querySelector("#status").textContent !== "");
  return page;
}
