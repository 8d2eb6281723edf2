/**
 * `npx tsx bench/n8n-nodes.ts`: our Loops node against n8n's own HTTP Request node making the same call
 * (GET /contacts/find?email=…, `Authorization: Bearer <key>`, the same Accept) per item, in the
 * same real n8n (scripts/n8n-host.ts: the cached n8n on Node 24), against the sandbox.
 *
 * The package is built from this worktree's source on every run, so it measures whatever the
 * source does now. Per item = the node's own `executionTime` as n8n stored it, over the items,
 * so n8n's start-up and the item generator are left out. Two shapes, each side its own workflow:
 * - `batch`: one node run over all the items (how each node handles a list by default: ours one
 *   call after the other, n8n's HTTP Request node starts every item's request at once);
 * - `loop`: Loop Over Items with batch size 1, so both nodes run once per item, one call at a time.
 * Runs alternate sides (ours, n8n's, n8n's, ours, …); the figure is the median of the runs.
 *
 * `npx tsx bench/n8n-nodes.ts --items 1000 --runs 3 --shapes batch,loop`; FLOWBLOCKS_KEEP_N8N_HOME=1
 * keeps n8n's user folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureN8n, importIntoN8n, installBuiltPackage, n8n, N8N_NODE, N8N_VERSION, readExecutions, type StoredExecution } from '../scripts/n8n-host.js';
import { workflowNode as node } from '../scripts/n8n-workflow-json.js';
import { startSandbox } from '../src/satellites/sandbox/index.js';
import { median } from './measure.js';
import { load, machine } from './report.js';

const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    shapes: { type: 'string', default: 'batch,loop' },
  },
});
const ITEMS = Number(args.items);
const RUNS = Number(args.runs);
const SHAPES = args.shapes.split(',') as Shape[];
type Shape = 'batch' | 'loop';
type Side = 'flowblocks' | 'httpRequest';

const EMAIL = 'n8n-bench@example.com';
/** The Accept header the harness sends; the HTTP Request node is told to send the same. */
const ACCEPT = 'application/json, text/plain;q=0.9, */*;q=0.8';
const log = (text: string) => process.stderr.write(`${text}\n`);

const to = (...targets: string[]) => targets.map((t) => ({ node: t, type: 'main', index: 0 }));

/** The node under test, by side: the same call either way. */
function callNode(side: Side, loopsUrl: string) {
  if (side === 'flowblocks') {
    return node('Call', 'n8n-nodes-flowblocks.flowblocksLoops', 1, { resource: 'contact', operation: 'find_contact', additionalFields: { email: '={{ $json.email }}' } }, {
      credentials: { flowblocksLoopsApi: { id: 'benchLoops000000', name: 'benchLoops000000' } },
    });
  }
  // n8n's HTTP Request node at the version the editor adds today, its options left at their defaults (no batching: every item's request starts at once).
  return node('Call', 'n8n-nodes-base.httpRequest', 4.5, {
    method: 'GET',
    url: `${loopsUrl}/contacts/find`,
    authentication: 'genericCredentialType',
    genericAuthType: 'httpBearerAuth',
    sendQuery: true,
    queryParameters: { parameters: [{ name: 'email', value: '={{ $json.email }}' }] },
    sendHeaders: true,
    headerParameters: { parameters: [{ name: 'Accept', value: ACCEPT }] },
    options: {},
  }, { credentials: { httpBearerAuth: { id: 'benchBearer00000', name: 'benchBearer00000' } } });
}

function workflowOf(shape: Shape, side: Side, loopsUrl: string) {
  const id = `bench${shape === 'batch' ? 'B' : 'L'}${side === 'flowblocks' ? 'F' : 'H'}`.padEnd(16, '0');
  const nodes: unknown[] = [
    node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
    node('Items', 'n8n-nodes-base.code', 2, { jsCode: `return Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { email: ${JSON.stringify(EMAIL)}, i } }));` }),
    callNode(side, loopsUrl),
  ];
  const connections: Record<string, unknown> = { Start: { main: [to('Items')] } };
  if (shape === 'batch') {
    connections.Items = { main: [to('Call')] };
  } else {
    nodes.push(node('Loop', 'n8n-nodes-base.splitInBatches', 3, { batchSize: 1, options: {} }));
    connections.Items = { main: [to('Loop')] };
    // Output 0 is "done", output 1 the next batch.
    connections.Loop = { main: [[], to('Call')] };
    connections.Call = { main: [to('Loop')] };
  }
  return { id, name: `bench ${shape} ${side}`, active: false, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** ms per item of one stored run, after checking every item found the contact. */
function perItem(e: StoredExecution, side: Side): number {
  if (e.status !== 'success') throw new Error(`execution ${e.id} (${e.workflowId}) ended ${e.status}: ${JSON.stringify(e.data.resultData.error ?? {}).slice(0, 500)}`);
  const runs = e.data.resultData.runData.Call ?? [];
  const out = runs.flatMap((r) => r.data?.main?.[0] ?? []);
  // Ours answers { contacts: [contact] } per item; the HTTP Request node turns the answer's array into one item per contact.
  const found = out.filter((item) => (side === 'flowblocks' ? (item.json.contacts as { email?: string }[] | undefined)?.[0]?.email : item.json.email) === EMAIL);
  if (found.length !== ITEMS) throw new Error(`execution ${e.id} (${e.workflowId}): ${found.length} of ${ITEMS} items found the contact; first item ${JSON.stringify(out[0]?.json).slice(0, 300)}`);
  return runs.reduce((sum, r) => sum + (r.executionTime ?? Number.NaN), 0) / ITEMS;
}

const fmtMs = (ms: number) => `${ms.toFixed(3)} ms`;

async function main(): Promise<void> {
  const installSeconds = ensureN8n();
  if (installSeconds) log(`n8n ${N8N_VERSION} installed into the cache in ${installSeconds} s`);
  const home = mkdtempSync(join(tmpdir(), 'flowblocks-n8n-bench-'));
  // Loops' limit raised so neither side is held back: the real 10 per second would make ours wait and n8n's answer 429.
  const sb = await startSandbox({ servicePorts: false, loops: { requestsPerSecond: 1_000_000 } });
  const started = performance.now();
  try {
    await installBuiltPackage(home);
    const created = await fetch(`${sb.urls.loops}/contacts/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.credentials.loops.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, firstName: 'Bench' }),
    });
    if (!created.ok) throw new Error(`creating the contact: HTTP ${created.status}`);
    const credentials = [
      { id: 'benchLoops000000', name: 'benchLoops000000', type: 'flowblocksLoopsApi', data: { apiKey: sb.credentials.loops.apiKey, baseUrl: sb.urls.loops } },
      { id: 'benchBearer00000', name: 'benchBearer00000', type: 'httpBearerAuth', data: { token: sb.credentials.loops.apiKey } },
    ];
    const sides: Side[] = ['flowblocks', 'httpRequest'];
    const workflows = SHAPES.flatMap((shape) => sides.map((side) => ({ shape, side, wf: workflowOf(shape, side, sb.urls.loops) })));
    await importIntoN8n(home, credentials, workflows.map((w) => w.wf));
    const loadBefore = load();
    const executed: { shape: Shape; side: Side; id: string }[] = [];
    for (let round = 0; round < RUNS; round++) {
      for (const shape of SHAPES) {
        // Alternating order: ours first in even rounds, n8n's first in odd ones.
        for (const side of round % 2 ? [...sides].reverse() : sides) {
          const { wf } = workflows.find((w) => w.shape === shape && w.side === side)!;
          const t = performance.now();
          const ran = await n8n(['execute', `--id=${wf.id}`, '--rawOutput'], home);
          log(`round ${round + 1} ${shape} ${side}: n8n execute exited ${ran.code} after ${((performance.now() - t) / 1000).toFixed(1)} s`);
          if (ran.code !== 0) throw new Error(`${wf.id}: n8n exited ${ran.code}: ${ran.stderr.slice(-2000)}`);
          executed.push({ shape, side, id: wf.id });
        }
      }
    }
    const loadAfter = load();
    const stored = await readExecutions(home);
    const lines = [
      `n8n ${N8N_VERSION} on Node ${execFileSync(N8N_NODE, ['--version']).toString().trim()} (${machine()}, the bench and the sandbox on that Node); ${ITEMS} items, ${RUNS} runs per side; load ${loadBefore} before, ${loadAfter} after; ${((performance.now() - started) / 1000).toFixed(0)} s in all.`,
      '',
      '| shape | flowblocks Loops node, per item | n8n HTTP Request node, per item | ratio (per run) |',
      '|---|---|---|---|',
    ];
    for (const shape of SHAPES) {
      const per = (side: Side) => {
        const id = workflows.find((w) => w.shape === shape && w.side === side)!.wf.id;
        return stored.filter((e) => e.workflowId === id).map((e) => perItem(e, side));
      };
      const ours = per('flowblocks');
      const theirs = per('httpRequest');
      const runsText = ours.map((o, i) => `${(o / theirs[i]!).toFixed(2)}×`).join(', ');
      lines.push(`| ${shape} | ${fmtMs(median(ours))} (${ours.map((o) => o.toFixed(3)).join(', ')}) | ${fmtMs(median(theirs))} (${theirs.map((o) => o.toFixed(3)).join(', ')}) | ${(median(ours) / median(theirs)).toFixed(2)}× (${runsText}) |`);
    }
    console.log(lines.join('\n'));
  } finally {
    await sb.close();
    if (process.env.FLOWBLOCKS_KEEP_N8N_HOME) log(`n8n user folder kept: ${home}`);
    else rmSync(home, { recursive: true, force: true });
  }
}

await main();
