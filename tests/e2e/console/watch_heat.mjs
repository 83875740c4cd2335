// tests/e2e/console/watch_heat.mjs: keeps the console's partition-heat view
// of a table open in Debian's headless Chromium (it polls the server once a
// second, as a person watching it would) until SIGTERM; for
// bench/http/console_bench.sh, not run by the test suite.
//
//   node watch_heat.mjs URL TABLE [LOADS]
//
// First loads the page LOADS times (default 5) in a fresh tab and prints one
// line per load, "load <ms to the load event> <ms to the first heat cells>",
// then prints "watching" and keeps one tab on the heat view.

import { launchBrowser } from "./console_harness.mjs";

const [url, table, loadsArg] = process.argv.slice(2);
if (!url || !table) {
  console.error("usage: node watch_heat.mjs URL TABLE [LOADS]");
  process.exit(2);
}
const loads = Number(loadsArg ?? 5);
const browser = await launchBrowser();
const stop = async () => { await browser.close().catch(() => {}); process.exit(0); };
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

// The credentials the bench's calls use (bench/http/lib.sh), so that the
// page sees the tables they created.
const creds = {
  accessKey: process.env.BENCH_ACCESS_KEY ?? "AKIDBENCH",
  region: process.env.BENCH_REGION ?? "us-east-1",
  secretKey: "",
};

async function open() {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  // sessionStorage is per origin: set it before the page's script reads it.
  await page.evaluateOnNewDocument((c) => {
    sessionStorage.setItem("dynarock.creds", JSON.stringify(c));
  }, creds);
  const t0 = performance.now();
  await page.goto(`${url}/console/#heat?table=${encodeURIComponent(table)}`, { waitUntil: "load" });
  const loaded = performance.now() - t0;
  await page.waitForSelector("#heat-cells .cell", { timeout: 30_000 });
  const drawn = performance.now() - t0;
  return { page, loaded, drawn };
}

for (let i = 0; i < loads; i++) {
  const { page, loaded, drawn } = await open();
  console.log(`load ${loaded.toFixed(1)} ${drawn.toFixed(1)}`);
  await page.close();
}
await open();
console.log("watching");
