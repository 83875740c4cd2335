// console.js: the dynarock web console (docs/console.md).
//
// Reads everything through the server's own DynamoDB API (POST
// /console/api/, the same operations and DynamoRock_20251121 extensions
// any SDK calls) and the cost view (POST /console/api/cost). Every value
// that comes from the data is put on the page as text (textContent,
// createElement, setAttribute), never parsed as markup: an item holding
// "<script>" shows as those characters. The page's Content-Security-Policy
// (api/http/protocol.cc) forbids inline script besides.
'use strict';

const PARTITION_RCU = 3000;  // a partition's ceilings (DynamoDB's, the model's)
const PARTITION_WCU = 1000;
const TIMELINE_SECONDS = 120;

const state = {
  creds: JSON.parse(sessionStorage.getItem('dynarock.creds') || '{}'),
  view: 'tables',
  tables: [],          // names
  clock: null,         // DescribeClock's answer
  items: { lastKey: null, request: null, items: [] },
  heat: { key: '', samples: [], partitionIds: null, splits: [] },
};

// ---- DOM helpers: text only ------------------------------------------------

const $ = (id) => document.getElementById(id);

// An element with attributes and children (strings become text nodes).
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function clear(node) { node.replaceChildren(); return node; }

function setStatus(text) { $('status').textContent = text || ''; }

function bytes(n) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = Number(n) || 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}

function num(n, digits = 1) {
  const v = Number(n) || 0;
  return Number.isInteger(v) ? String(v) : v.toFixed(digits);
}

// ---- calls ----------------------------------------------------------------

class ApiError extends Error {
  constructor(type, message) { super(message); this.type = type; }
}

async function post(path, target, body) {
  const text = JSON.stringify(body || {});
  const headers = { 'Content-Type': 'application/x-amz-json-1.0' };
  if (target) headers['X-Amz-Target'] = target;
  const signed = await SigV4.sign(path, headers, text, state.creds);
  const response = await fetch(path, { method: 'POST', headers: signed, body: text });
  const answer = await response.text();
  let json = {};
  try { json = answer ? JSON.parse(answer) : {}; } catch (e) { json = { message: answer }; }
  if (!response.ok) {
    const type = String(json.__type || response.status).split('#').pop();
    throw new ApiError(type, json.message || json.Message || answer);
  }
  return json;
}

// One DynamoDB call: call('Scan', {...}); extensions by their whole target.
function call(operation, body) {
  const target = operation.includes('_') ? operation : `DynamoDB_20120810.${operation}`;
  return post('/console/api/', target, body);
}

const AUTH_ERRORS = new Set(['MissingAuthenticationTokenException', 'UnrecognizedClientException',
  'InvalidSignatureException', 'IncompleteSignatureException', 'AccessDeniedException']);

function reportError(e) {
  if (AUTH_ERRORS.has(e.type)) setStatus(`${e.type}: ${e.message}`);
  else setStatus(e.message || String(e));
}

// ---- clock ----------------------------------------------------------------

async function refreshClock() {
  state.clock = await call('DynamoRock_20251121.DescribeClock', {});
  const when = new Date(state.clock.Now * 1000).toISOString().replace('T', ' ').replace('Z', ' UTC');
  $('clock').textContent = `${state.clock.Mode === 'SIMULATED' ? 'simulated' : 'real'} clock: ${when}`;
}

// ---- tables ---------------------------------------------------------------

async function listTables() {
  const names = [];
  let start;
  do {
    const page = await call('ListTables', start ? { ExclusiveStartTableName: start } : {});
    names.push(...(page.TableNames || []));
    start = page.LastEvaluatedTableName;
  } while (start);
  state.tables = names;
  for (const id of ['items-table', 'heat-table', 'idx-table', 'cost-table']) fillTableSelect($(id));
  return names;
}

function fillTableSelect(select) {
  const chosen = select.value;
  clear(select);
  for (const name of state.tables) select.append(el('option', { value: name, text: name }));
  if (state.tables.includes(chosen)) select.value = chosen;
}

function keySchemaText(schema, definitions) {
  const types = {};
  for (const d of definitions || []) types[d.AttributeName] = d.AttributeType;
  return (schema || []).map((k) => `${k.AttributeName} (${types[k.AttributeName] || '?'}, ${k.KeyType})`).join(', ');
}

async function renderTables() {
  const names = await listTables();
  const body = clear($('tables-list').tBodies[0]);
  $('tables-empty').hidden = names.length > 0;
  for (const name of names) {
    const t = (await call('DescribeTable', { TableName: name })).Table;
    const indexes = el('ul');
    for (const [kind, list] of [['GSI', t.GlobalSecondaryIndexes], ['LSI', t.LocalSecondaryIndexes]]) {
      for (const ix of list || []) {
        indexes.append(el('li', {}, `${kind} ${ix.IndexName}: ${ix.IndexStatus || 'ACTIVE'}, ` +
          `${keySchemaText(ix.KeySchema, t.AttributeDefinitions)}, ${ix.Projection ? ix.Projection.ProjectionType : ''}, ` +
          `${num(ix.ItemCount)} items, ${bytes(ix.IndexSizeBytes)}`));
      }
    }
    const billing = (t.BillingModeSummary && t.BillingModeSummary.BillingMode) ||
      (t.ProvisionedThroughput && t.ProvisionedThroughput.ReadCapacityUnits ? 'PROVISIONED' : 'PAY_PER_REQUEST');
    const pt = t.ProvisionedThroughput || {};
    body.append(el('tr', { 'data-table': name },
      el('td', { text: name }), el('td', { text: t.TableStatus }),
      el('td', { text: keySchemaText(t.KeySchema, t.AttributeDefinitions) }),
      el('td', { text: billing === 'PROVISIONED' ? `PROVISIONED (${pt.ReadCapacityUnits} RCU, ${pt.WriteCapacityUnits} WCU)` : billing }),
      el('td', { text: num(t.ItemCount) }), el('td', { text: bytes(t.TableSizeBytes) }),
      el('td', {}, indexes)));
  }
}

// ---- items ----------------------------------------------------------------

// An AttributeValue as short text: {"S":"a"} -> a, {"N":"1"} -> 1, others as JSON.
function valueText(v) {
  if (v == null) return '';
  if ('S' in v) return v.S;
  if ('N' in v) return v.N;
  if ('BOOL' in v) return String(v.BOOL);
  if ('NULL' in v) return 'null';
  return JSON.stringify(v);
}

async function fillIndexSelect(tableSelect, indexSelect) {
  const chosen = indexSelect.value;
  clear(indexSelect).append(el('option', { value: '', text: '(table)' }));
  if (!tableSelect.value) return;
  const t = (await call('DescribeTable', { TableName: tableSelect.value })).Table;
  for (const ix of [...(t.GlobalSecondaryIndexes || []), ...(t.LocalSecondaryIndexes || [])]) {
    indexSelect.append(el('option', { value: ix.IndexName, text: ix.IndexName }));
  }
  if ([...indexSelect.options].some((o) => o.value === chosen)) indexSelect.value = chosen;
  return t;
}

function parseJsonInput(id) {
  const text = $(id).value.trim();
  if (!text) return undefined;
  try { return JSON.parse(text); } catch (e) { throw new ApiError('Input', `${id}: not JSON: ${e.message}`); }
}

function itemRequest() {
  const r = { TableName: $('items-table').value, Limit: Number($('items-limit').value) || 25 };
  if ($('items-index').value) r.IndexName = $('items-index').value;
  if ($('items-op').value === 'Query') r.KeyConditionExpression = $('items-key').value;
  if ($('items-filter').value.trim()) r.FilterExpression = $('items-filter').value;
  const values = parseJsonInput('items-values');
  const names = parseJsonInput('items-names');
  if (values) r.ExpressionAttributeValues = values;
  if (names) r.ExpressionAttributeNames = names;
  return r;
}

async function runItems(next) {
  const request = next ? Object.assign({}, state.items.request, { ExclusiveStartKey: state.items.lastKey })
    : itemRequest();
  const answer = await call($('items-op').value, request);
  state.items.request = itemRequest();
  state.items.lastKey = answer.LastEvaluatedKey || null;
  state.items.items = answer.Items || [];
  $('items-next').disabled = !state.items.lastKey;
  $('items-summary').textContent = `${answer.Count} items (${answer.ScannedCount} scanned)` +
    (state.items.lastKey ? '; more: Next page' : '; last page');
  renderItemRows();
}

function renderItemRows() {
  const table = $('items-list');
  const columns = [];
  for (const item of state.items.items) {
    for (const name of Object.keys(item)) if (!columns.includes(name)) columns.push(name);
  }
  clear(table.tHead).append(el('tr', {}, ...columns.map((c) => el('th', { text: c }))));
  const body = clear(table.tBodies[0]);
  state.items.items.forEach((item, i) => {
    const row = el('tr', { class: 'selectable', 'data-row': String(i) },
      ...columns.map((c) => el('td', { text: valueText(item[c]) })));
    row.addEventListener('click', () => { $('item-json').textContent = JSON.stringify(item, null, 2); });
    body.append(row);
  });
  $('item-json').textContent = '';
}

async function putItem() {
  $('put-result').textContent = '';
  try {
    const item = parseJsonInput('put-json');
    await call('PutItem', { TableName: $('items-table').value, Item: item });
    $('put-result').textContent = 'written';
  } catch (e) {
    $('put-result').textContent = `${e.type}: ${e.message}`;
  }
}

// ---- partition heat -------------------------------------------------------

// hsl from green (idle) through yellow to red (at the ceiling).
function heatColour(ratio) {
  const r = Math.max(0, Math.min(1, ratio));
  return `hsl(${Math.round(120 - 120 * r)}, 80%, ${Math.round(88 - 30 * r)}%)`;
}

function heatKey() { return `${$('heat-table').value}/${$('heat-index').value}`; }

async function renderHeat() {
  const table = $('heat-table').value;
  if (!table) return;
  if (state.heat.key !== heatKey()) {
    state.heat = { key: heatKey(), samples: [], partitionIds: null, splits: [] };
  }
  const capacity = await call('DynamoRock_20251121.DescribeCapacity', { TableName: table, HotKeys: 10 });
  const index = $('heat-index').value;
  const resource = index ? (capacity.GlobalSecondaryIndexes || []).find((g) => g.IndexName === index)
    : capacity.Table;
  if (!resource) return;
  const now = state.clock ? state.clock.Now : Date.now() / 1000;
  const last = resource.LastSecond || {};
  const partitions = resource.Partitions || [];

  // Cells.
  const cells = clear($('heat-cells'));
  let hot = 0;
  let throttledNow = 0;
  for (const p of partitions) {
    const s = p.LastSecond || {};
    const ratio = Math.max((s.ConsumedReadUnits || 0) / PARTITION_RCU, (s.ConsumedWriteUnits || 0) / PARTITION_WCU);
    const throttled = (s.ThrottledReadUnits || 0) + (s.ThrottledWriteUnits || 0);
    if (ratio >= 0.8) hot++;
    if (throttled > 0) throttledNow++;
    const cell = el('div', {
      class: throttled > 0 ? 'cell throttled' : 'cell',
      'data-partition': String(p.Id), 'data-ratio': ratio.toFixed(3),
      title: `hash ${p.HashBegin}..${p.HashEnd}; read bucket ${num(p.ReadBalance)}, write bucket ${num(p.WriteBalance)}`,
    }, el('div', { class: 'id', text: `#${p.Id}` }),
    el('div', { text: `${num(s.ConsumedReadUnits)} RCU ${num(s.ConsumedWriteUnits)} WCU` }),
    el('div', { text: throttled > 0 ? `throttled ${num(throttled)}` : `${num(p.ItemCount)} items ${bytes(p.SizeBytes)}` }));
    cell.style.background = heatColour(ratio);
    cells.append(cell);
  }
  $('heat-summary').textContent = `${partitions.length} partitions; ${hot} hot (80% of a ceiling or more); ` +
    `${throttledNow} throttled in the last second; the ${index ? 'index' : 'table'} serves up to ` +
    `${num(resource.ReadUnitsPerSecond)} RCU/s and ${num(resource.WriteUnitsPerSecond)} WCU/s now ` +
    '(provisioned, or what on-demand serves at once)';

  // Splits: partitions that were not there at the last look.
  const ids = partitions.map((p) => p.Id);
  if (state.heat.partitionIds) {
    const gone = state.heat.partitionIds.filter((id) => !ids.includes(id));
    const born = ids.filter((id) => !state.heat.partitionIds.includes(id));
    if (gone.length || born.length) {
      state.heat.splits.unshift(`${new Date(now * 1000).toISOString()}: partition ${gone.join(', ') || '-'} -> ${born.join(', ')}`);
    }
  }
  state.heat.partitionIds = ids;
  const splits = clear($('heat-splits'));
  if (!state.heat.splits.length) splits.append(el('li', { text: `none seen since the page opened (${partitions.length} partitions)` }));
  for (const s of state.heat.splits.slice(0, 20)) splits.append(el('li', { text: s }));

  // Timeline: one sample per second of the server's clock (a simulated
  // clock that did not move replaces its second's sample).
  const second = Math.floor(now);
  const faults = capacity.InjectedFaults || {};
  const sample = {
    t: second,
    rcu: last.ConsumedReadUnits || 0, wcu: last.ConsumedWriteUnits || 0,
    thr: last.ThrottledReadUnits || 0, thw: last.ThrottledWriteUnits || 0,
  };
  const samples = state.heat.samples;
  if (samples.length && samples[samples.length - 1].t === second) samples[samples.length - 1] = sample;
  else samples.push(sample);
  while (samples.length && samples[samples.length - 1].t - samples[0].t > TIMELINE_SECONDS) samples.shift();
  drawTimeline(samples);

  // Throttles by reason: the model's own (read / write capacity) and the
  // injected ones (by error name).
  const total = resource.Total || {};
  const reasons = clear($('heat-reasons').tBodies[0]);
  const rows = [['read capacity (ProvisionedThroughputExceeded / ThrottlingException)', `${num(total.ThrottledReadRequests)} requests, ${num(total.ThrottledReadUnits)} units`],
    ['write capacity (ProvisionedThroughputExceeded / ThrottlingException)', `${num(total.ThrottledWriteRequests)} requests, ${num(total.ThrottledWriteUnits)} units`]];
  for (const [reason, count] of Object.entries(faults)) rows.push([`injected: ${reason}`, `${num(count)}`]);
  for (const [a, b] of rows) reasons.append(el('tr', {}, el('td', { text: a }), el('td', { text: b })));

  const keys = clear($('heat-hotkeys').tBodies[0]);
  for (const k of resource.HotKeys || []) {
    keys.append(el('tr', {}, el('td', { text: k.Key }), el('td', { text: num(k.Units) }),
      el('td', { text: num(k.ReadUnits) }), el('td', { text: num(k.WriteUnits) }), el('td', { text: num(k.ThrottledUnits) })));
  }
}

const SERIES = [
  ['rcu', 'consumed RCU', '#2f6fd0'], ['wcu', 'consumed WCU', '#1d9a50'],
  ['thr', 'throttled read units', '#e08a00'], ['thw', 'throttled write units', '#c00000'],
];

function svg(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function drawTimeline(samples) {
  const plot = clear($('heat-timeline'));
  const width = 900;
  const height = 220;
  const left = 50;
  const bottom = 20;
  let max = 1;
  for (const s of samples) for (const [key] of SERIES) max = Math.max(max, s[key]);
  const t0 = samples.length ? samples[samples.length - 1].t - TIMELINE_SECONDS : 0;
  const x = (t) => left + ((t - t0) / TIMELINE_SECONDS) * (width - left - 10);
  const y = (v) => height - bottom - (v / max) * (height - bottom - 10);
  plot.append(svg('line', { x1: left, y1: height - bottom, x2: width - 10, y2: height - bottom, stroke: '#8a93a6' }));
  for (const v of [0, max / 2, max]) {
    const label = svg('text', { x: 4, y: y(v) + 4, 'font-size': 10, fill: '#4a5366' });
    label.textContent = num(v, 0);
    plot.append(label);
  }
  const axis = svg('text', { x: left, y: height - 4, 'font-size': 10, fill: '#4a5366' });
  axis.textContent = `last ${TIMELINE_SECONDS} s of the server's clock`;
  plot.append(axis);
  for (const [key, , colour] of SERIES) {
    const points = samples.map((s) => `${x(s.t).toFixed(1)},${y(s[key]).toFixed(1)}`).join(' ');
    if (points) plot.append(svg('polyline', { points, fill: 'none', stroke: colour, 'stroke-width': 2, 'data-series': key }));
  }
  const legend = clear($('heat-legend'));
  for (const [, name, colour] of SERIES) {
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = colour;
    legend.append(swatch, name);
  }
}

// ---- indexes, streams, TTL ------------------------------------------------

async function renderIndexes() {
  const name = $('idx-table').value;
  if (!name) return;
  const t = (await call('DescribeTable', { TableName: name })).Table;
  const body = clear($('idx-gsis').tBodies[0]);
  for (const g of t.GlobalSecondaryIndexes || []) {
    const share = t.ItemCount ? ` (${Math.round((100 * (g.ItemCount || 0)) / t.ItemCount)}%)` : '';
    body.append(el('tr', { 'data-index': g.IndexName }, el('td', { text: g.IndexName }), el('td', { text: g.IndexStatus }),
      el('td', { text: g.Backfilling ? 'yes' : 'no' }), el('td', { text: `${num(g.ItemCount)} of ${num(t.ItemCount)}${share}` }),
      el('td', { text: bytes(g.IndexSizeBytes) })));
  }
  if ((t.GlobalSecondaryIndexes || []).length) {
    const p = await call('DynamoRock_20251121.DescribeIndexPropagation', { TableName: name });
    $('idx-propagation').textContent = `propagation: ${num(p.PendingRecords)} records pending, ${num(p.AppliedRecords)} applied; ` +
      `lag p50 ${num(p.LagP50Micros / 1000, 2)} ms, p99 ${num(p.LagP99Micros / 1000, 2)} ms, max ${num(p.LagMaxMicros / 1000, 2)} ms`;
  } else {
    $('idx-propagation').textContent = 'no global secondary index';
  }

  const shards = clear($('idx-shards'));
  if (!t.LatestStreamArn) {
    $('idx-stream').textContent = 'no stream';
  } else {
    const stream = (await call('DynamoDBStreams_20120810.DescribeStream', { StreamArn: t.LatestStreamArn })).StreamDescription;
    const stats = await call('DynamoRock_20251121.DescribeStreamStats', { TableName: name });
    const shardStats = {};
    for (const s of stats.Streams || []) for (const sh of s.Shards || []) shardStats[sh.ShardId] = sh;
    $('idx-stream').textContent = `${stream.StreamStatus}, ${stream.StreamViewType}, ${(stream.Shards || []).length} shards`;
    drawShardTree(shards, stream.Shards || [], shardStats);
  }

  const ttl = (await call('DescribeTimeToLive', { TableName: name })).TimeToLiveDescription || {};
  let deletions = '';
  if (ttl.TimeToLiveStatus === 'ENABLED' || ttl.TimeToLiveStatus === 'DISABLING') {
    // Counted per clock second by the engine: the last second, the last
    // minute's average, and everything since the server opened the table.
    const cap = await call('DynamoRock_20251121.DescribeCapacity', { TableName: name, HotKeys: 0 });
    const r = (cap.Table || {});
    const ttlCount = (w) => ((r[w] || {}).TimeToLiveDeletedItems || 0);
    deletions = `; deletions: ${num(ttlCount('LastSecond'))}/s now, ${num(ttlCount('LastMinute') / 60, 2)}/s over the last minute, ` +
      `${num(ttlCount('Total'))} in all`;
  }
  $('idx-ttl').textContent = `${ttl.TimeToLiveStatus || 'DISABLED'}` +
    (ttl.AttributeName ? ` on attribute ${ttl.AttributeName}` : '') + deletions;
}

// Shards as a lineage tree: children under their parent, built with a
// queue (no recursion), roots being the shards whose parent is gone.
function drawShardTree(root, shards, stats) {
  const byId = new Map(shards.map((s) => [s.ShardId, s]));
  const children = new Map();
  const roots = [];
  for (const s of shards) {
    if (s.ParentShardId && byId.has(s.ParentShardId)) {
      if (!children.has(s.ParentShardId)) children.set(s.ParentShardId, []);
      children.get(s.ParentShardId).push(s);
    } else {
      roots.push(s);
    }
  }
  const queue = roots.map((s) => [s, root]);
  while (queue.length) {
    const [shard, list] = queue.shift();
    const open = !(shard.SequenceNumberRange && shard.SequenceNumberRange.EndingSequenceNumber);
    const st = stats[shard.ShardId] || {};
    const item = el('li', { 'data-shard': shard.ShardId },
      el('span', { class: open ? 'open' : 'closed', text: open ? 'open ' : 'closed ' }),
      shard.ShardId, ` ${num(st.Records)} records`);
    list.append(item);
    const kids = children.get(shard.ShardId) || [];
    if (kids.length) {
      const sub = el('ul');
      item.append(sub);
      for (const k of kids) queue.push([k, sub]);
    }
  }
}

// ---- cost -----------------------------------------------------------------

async function renderCost() {
  const name = $('cost-table').value;
  if (!name) return;
  const c = await post('/console/api/cost', null, { TableName: name });
  const dollars = (v) => `$${v < 0.01 && v > 0 ? v.toFixed(6) : v.toFixed(2)}`;
  const body = clear($('cost-table-view').tBodies[0]);
  for (const [label, part, text] of [['on-demand', c.OnDemand, c.OnDemandText], ['provisioned', c.Provisioned, c.ProvisionedText]]) {
    body.append(el('tr', { 'data-mode': label }, el('th', { text: label }), el('td', { text: dollars(part.Reads) }),
      el('td', { text: dollars(part.Writes) }), el('td', { text: dollars(part.Storage) }), el('td', { text })));
  }
  const u = c.Usage;
  $('cost-usage').textContent = `over ${num(c.PeriodHours, 4)} h on the server's clock: ${num(u.ReadUnits)} read units, ` +
    `${num(u.WriteUnits)} write units + ${num(u.GsiWriteUnits)} GSI write units, ${bytes(u.StorageBytes)} stored; ` +
    `provisioned: ${num(u.ProvisionedReadCapacityUnits)} RCU, ${num(u.ProvisionedWriteCapacityUnits)} WCU ` +
    (u.ProvisionedFrom === 'TABLE' ? '(the table\'s own)' : '(sized to the busiest second)');
  $('cost-cheaper').textContent = c.Cheaper === 'NEITHER' ? 'Both modes cost the same'
    : `Cheaper: ${c.Cheaper === 'ON_DEMAND' ? 'on-demand' : 'provisioned'}`;
  $('cost-source').textContent = `${c.Region} ${c.TableClass} list prices of ${c.PricesAsOf} (${c.PriceSource})`;
}

// ---- wiring ---------------------------------------------------------------

const RENDER = { tables: renderTables, items: async () => {}, heat: renderHeat, indexes: renderIndexes, cost: renderCost };

let busy = false;
async function refresh() {
  if (busy) return;
  busy = true;
  try {
    await refreshClock();
    if (!state.tables.length || state.view === 'tables') await listTables();
    await RENDER[state.view]();
    setStatus('');
  } catch (e) {
    reportError(e);
  } finally {
    busy = false;
  }
}

function show(view) {
  state.view = view;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.view === view);
  for (const s of document.querySelectorAll('.view')) s.classList.toggle('active', s.id === `view-${view}`);
  refresh();
}

function start() {
  $('access-key').value = state.creds.accessKey || '';
  $('region').value = state.creds.region || '';
  $('secret-key').value = state.creds.secretKey || '';
  $('credentials').addEventListener('submit', (e) => {
    e.preventDefault();
    state.creds = { accessKey: $('access-key').value.trim(), region: $('region').value.trim(), secretKey: $('secret-key').value };
    sessionStorage.setItem('dynarock.creds', JSON.stringify(state.creds));
    state.tables = [];
    refresh();
  });
  for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => show(b.dataset.view));
  $('item-query').addEventListener('submit', (e) => {
    e.preventDefault();
    runItems(false).catch(reportError);
  });
  $('items-next').addEventListener('click', () => runItems(true).catch(reportError));
  $('items-table').addEventListener('change', () => fillIndexSelect($('items-table'), $('items-index')).catch(reportError));
  $('heat-table').addEventListener('change', () => fillIndexSelect($('heat-table'), $('heat-index')).then(refresh, reportError));
  $('heat-index').addEventListener('change', refresh);
  $('idx-table').addEventListener('change', refresh);
  $('cost-table').addEventListener('change', refresh);
  $('put-item').addEventListener('click', putItem);
  // A view may be named in the address: /console/#heat?table=t
  const hash = location.hash.slice(1);
  const [view, query] = hash.split('?');
  const params = new URLSearchParams(query || '');
  // The clock and the table names first, then only the view asked for: the
  // tables view describes every table, which a page opened on another view
  // need not wait for.
  (async () => {
    try {
      await refreshClock();
      await listTables();
    } catch (e) {
      reportError(e);
    }
    if (params.get('table') && state.tables.includes(params.get('table'))) {
      for (const id of ['items-table', 'heat-table', 'idx-table', 'cost-table']) $(id).value = params.get('table');
    }
    if (state.tables.length) {
      await fillIndexSelect($('heat-table'), $('heat-index')).catch(reportError);
      await fillIndexSelect($('items-table'), $('items-index')).catch(reportError);
    }
    show(RENDER[view] ? view : 'tables');
  })();
  // Live views poll once a second; the clock they follow is the server's.
  setInterval(() => { if (state.view === 'heat' || state.view === 'indexes') refresh(); }, 1000);
  setInterval(() => { if (state.view === 'tables') refresh(); }, 5000);
}

document.addEventListener('DOMContentLoaded', start);
