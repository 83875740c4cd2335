// tests/e2e/js/model_walk.test.mjs
//
// Walks DynamoDB's whole input model, as the AWS SDK for JavaScript v3 in
// node_modules carries it (its schemas list every operation's input
// members), against the server: every member of every operation is either
// implemented or refused by name, never silently ignored (issue 43).
//
// How a member is told apart without a list the server keeps: a member the
// server knows has its JSON type checked (DynamoDB's SerializationException
// for a value of the wrong type), a member it does not know would be
// skipped. So each member is sent once with a value of the wrong type
// (expected: SerializationException) and once with a value of the right
// type (expected: anything but a refusal, unless this file lists the member
// as refused). A future model that adds a member dynarock neither reads nor
// refuses fails the first check; one that adds an operation fails until the
// operation is served or listed below.

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, test } from "node:test";

import { startServer } from "./dynarock_server.mjs";

const require = createRequire(import.meta.url);
const sdk = require("@aws-sdk/client-dynamodb/dist-cjs/index.js");

// Operations of the model dynarock does not serve: UnknownOperationException.
const UNSERVED = {
  // Kinesis streaming destinations and replica auto scaling need other AWS
  // services or auto scaling, which dynarock does not have: DynamoDB
  // Local's answer.
  DescribeTableReplicaAutoScaling: "no auto scaling",
  UpdateTableReplicaAutoScaling: "no auto scaling",
  DescribeKinesisStreamingDestination: "no Kinesis locally",
  DisableKinesisStreamingDestination: "no Kinesis locally",
  EnableKinesisStreamingDestination: "no Kinesis locally",
  UpdateKinesisStreamingDestination: "no Kinesis locally",
};

// Operations being added now by other sessions of issues 39 and 43: served
// or not, their members are not walked until their owners list them here
// no more.
const IN_PROGRESS = {};

// Members of served operations that dynarock refuses by name, and why.
const REFUSED = {
  "CreateTable.GlobalTableSourceArn": "global tables, issue 44",
  "CreateTable.GlobalTableSettingsReplicationMode": "global tables, issue 44",
  "UpdateTable.GlobalTableSettingsReplicationMode": "global tables, issue 44",
  "UpdateTable.DisassociationProtectionEnabled": "global tables, issue 44",
  "ExportTableToPointInTime.FilterSpecification": "filtered exports, not implemented",
  "UpdateGlobalTableSettings.GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate":
      "no auto scaling",
};

// Members being built by other sessions: not walked until built.
const OWNED_ELSEWHERE = new Set([]);

const NUMERIC = new Set([1, 4, 5, 6, 7, 17, 19]);

// The schema of a member with its traits wrapper and lazy reference undone.
function resolve(schema) {
  let s = typeof schema === "function" ? schema() : schema;
  if (Array.isArray(s) && typeof s[0] === "number" && s.length === 2 && typeof s[1] === "object") {
    s = s[0];  // [simple type, traits]
  }
  return s;
}

// "number" | "string" | "boolean" | "blob" | "list" | "map" | "structure".
function kindOf(schema) {
  const s = resolve(schema);
  if (typeof s === "number") {
    if (s & 64) return "list";
    if (s & 128) return "map";
    if (NUMERIC.has(s)) return "number";
    if (s === 2) return "boolean";
    if (s === 21) return "blob";
    return "string";
  }
  switch (s[0]) {
    case 1: return "list";
    case 2: return "map";
    default: return "structure";  // 3 structure, 4 union
  }
}

function rightValue(kind) {
  return { number: 1, string: "xyz", boolean: true, blob: "AA==", list: [], map: {},
           structure: {} }[kind];
}

function wrongValue(kind) {
  return kind === "number" ? { probe: 1 } : 1;
}

function operations() {
  const ops = [];
  for (const [key, value] of Object.entries(sdk)) {
    if (!key.endsWith("$") || !Array.isArray(value) || value[0] !== 9) continue;
    const input = value[4]();
    const names = input[4];
    const schemas = input[5];
    const required = typeof input[6] === "number" ? input[6] : 0;
    ops.push({
      name: value[2],
      members: names.map((n, i) => ({ name: n, kind: kindOf(schemas[i]), required: i < required })),
    });
  }
  return ops.sort((a, b) => a.name.localeCompare(b.name));
}

let server;
before(async () => { server = await startServer(); });
after(() => server?.proc.kill());

async function call(operation, body) {
  const r = await fetch(server.url, {
    method: "POST",
    headers: { "content-type": "application/x-amz-json-1.0",
               "x-amz-target": `DynamoDB_20120810.${operation}` },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  const json = text ? JSON.parse(text) : {};
  return { status: r.status, type: (json.__type ?? "").split("#").pop(),
           message: json.message ?? json.Message ?? "" };
}

test("the model has the operations this walk expects", () => {
  const names = operations().map((o) => o.name);
  assert.ok(names.length >= 62, `only ${names.length} operations in the SDK's model`);
  for (const name of [...Object.keys(UNSERVED), ...Object.keys(IN_PROGRESS)]) {
    assert.ok(names.includes(name), `${name} is listed here but not in the model`);
  }
});

test("every operation is served, or listed as unserved or in progress", async () => {
  for (const op of operations()) {
    if (IN_PROGRESS[op.name]) continue;
    const r = await call(op.name, {});
    if (UNSERVED[op.name]) {
      assert.equal(r.type, "UnknownOperationException", `${op.name}: ${JSON.stringify(r)}`);
    } else {
      assert.notEqual(r.type, "UnknownOperationException", `${op.name} is not served`);
    }
  }
});

test("every input member is read (its type checked) or refused by name", async () => {
  const problems = [];
  const refused = new Set();
  for (const op of operations()) {
    if (UNSERVED[op.name] || IN_PROGRESS[op.name]) continue;
    const base = {};
    for (const m of op.members) if (m.required) base[m.name] = rightValue(m.kind);
    for (const m of op.members) {
      const id = `${op.name}.${m.name}`;
      if (OWNED_ELSEWHERE.has(id)) continue;
      const wrong = await call(op.name, { ...base, [m.name]: wrongValue(m.kind) });
      if (wrong.type !== "SerializationException") {
        problems.push(`${id} (${m.kind}): a value of the wrong type answered ` +
                      `${wrong.type} ${wrong.message}`);
      }
      const right = await call(op.name, { ...base, [m.name]: rightValue(m.kind) });
      const isRefusal = right.type === "ValidationException" &&
          right.message.includes(`does not support the parameter ${m.name}`);
      if (isRefusal) refused.add(id);
      if (isRefusal !== Boolean(REFUSED[id])) {
        problems.push(`${id}: ${isRefusal ? "refused but not listed" : "listed as refused but " +
                      `answered ${right.type} ${right.message}`}`);
      }
    }
  }
  assert.deepEqual(problems, []);
  for (const id of Object.keys(REFUSED)) assert.ok(refused.has(id), `${id} was not refused`);
});
