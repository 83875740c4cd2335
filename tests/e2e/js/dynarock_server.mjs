// tests/e2e/js/dynarock_server.mjs
//
// Starts `dynarock serve --in-memory --port 0` (plus `args`) for the JS SDK
// tests and resolves, once it prints the address it listens on, with
// { proc, url }. The binary is $DYNAROCK_BIN, else build/dynarock. The server
// is killed if it has not listened within 10 s.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export async function startServer(args = []) {
  const bin = process.env.DYNAROCK_BIN ?? resolve(repo, "build/dynarock");
  assert.ok(existsSync(bin), `no dynarock binary at ${bin}: build it or set DYNAROCK_BIN`);
  const proc = spawn(bin, ["serve", "--in-memory", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: proc.stdout });
  const timeout = setTimeout(() => proc.kill("SIGKILL"), 10_000);
  for await (const line of lines) {
    const m = /^dynarock listening on (http:\/\/\S+)/.exec(line);
    if (m) {
      clearTimeout(timeout);
      return { proc, url: m[1] };
    }
  }
  throw new Error("dynarock exited before listening");
}
