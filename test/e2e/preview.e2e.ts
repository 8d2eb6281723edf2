import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldManifest } from '../../src/blocks/manifest.js';
import { closeSharedDispatcher } from '../../src/harness/send/dispatcher.js';
import { sandboxConnection, startPreviewServer, type PreviewServer } from '../../src/satellites/preview/index.js';
import { listBlocks } from '../../src/registry.js';
import { startSandbox, type Sandbox } from '../../src/satellites/sandbox/index.js';
import { launchChromium } from './chromium.js';

/** Every operation's screenshot; `PREVIEW_SCREENSHOTS_DIR=docs/preview npm run test:e2e` sends the one-per-block set there. */
const SHOTS = 'test-results/preview';
const BLOCK_SHOTS = process.env.PREVIEW_SCREENSHOTS_DIR ?? SHOTS;

// The project's lib has no DOM: these are the few browser members the page callbacks read.
interface Control {
  tagName: string;
  value: string;
  checked: boolean;
  indeterminate: boolean;
  hidden: boolean;
  offsetHeight: number;
  options: ArrayLike<{ value: string }>;
  getAttribute(name: string): string | null;
}
declare function getComputedStyle(element: unknown): { display: string; backgroundColor: string };

let sb: Sandbox;
let preview: PreviewServer;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const pageErrors: string[] = [];
const offHost: string[] = [];

beforeAll(async () => {
  mkdirSync(join(SHOTS, 'operations'), { recursive: true });
  mkdirSync(BLOCK_SHOTS, { recursive: true });
  browser = await launchChromium();
  sb = await startSandbox({ port: 0 });
  preview = await startPreviewServer({ port: 0, connection: sandboxConnection(sb) });
  page = await browser.context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    // A refused run answers 400 on purpose (see the JSON test); any other console error counts.
    if (message.type() === 'error' && !message.text().includes('status of 400')) pageErrors.push(message.text());
  });
  // The page must need nothing beyond the preview server itself.
  await browser.context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    offHost.push(url.href);
    return route.abort();
  });
  await page.goto(preview.url);
  await page.waitForSelector('body[data-ready="true"]');
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  await sb?.close();
  await closeSharedDispatcher();
});

async function openBlock(type: string): Promise<void> {
  await page.click(`.block-item[data-block="${type}"]`);
  await page.waitForSelector(`#block[data-block="${type}"]`);
}

async function pickOperation(op: string): Promise<void> {
  await page.selectOption('#f-operation', op);
}

/** What the page shows for each visible field, read from the DOM the way a user would meet it. */
function visibleFields() {
  return page.$$eval('#fields .field:not([hidden])', (rows) =>
    rows.map((row) => {
      const input = row.querySelector('input, select, textarea') as unknown as Control;
      const style = getComputedStyle(row);
      return {
        id: row.getAttribute('data-field-id')!,
        displayed: style.display !== 'none' && (row as unknown as Control).offsetHeight > 0,
        requiredMark: !(row.querySelector('.req') as unknown as Control).hidden,
        tag: input.tagName.toLowerCase(),
        inputType: input.getAttribute('type'),
        role: input.getAttribute('role'),
        language: row.querySelector('.code .lang')?.textContent ?? null,
        value: input.value,
        checked: input.checked,
        indeterminate: input.indeterminate,
        options: input.tagName === 'SELECT' ? Array.from(input.options).map((o) => o.value) : null,
      };
    }),
  );
}

type Shown = Awaited<ReturnType<typeof visibleFields>>[number];

/** The control a manifest field must be rendered as. */
function expectControl(field: FieldManifest, shown: Shown): void {
  const where = `field ${field.id}`;
  if (field.type === 'dropdown') {
    expect(shown.tag, where).toBe('select');
    const ids = (field.options ?? []).map((o) => o.id);
    expect(shown.options, where).toEqual(field.default === undefined && field.id !== 'operation' ? ['', ...ids] : ids);
  } else if (field.type === 'switch') {
    expect([shown.tag, shown.inputType, shown.role], where).toEqual(['input', 'checkbox', 'switch']);
  } else if (field.type === 'code') {
    expect(shown.tag, where).toBe('textarea');
    expect(shown.language, where).toBe(field.language ?? 'text');
  } else if (field.type === 'long-input') {
    expect(shown.tag, where).toBe('textarea');
  } else if (field.type === 'number') {
    expect([shown.tag, shown.inputType], where).toEqual(['input', 'number']);
  } else {
    expect([shown.tag, shown.inputType], where).toEqual(['input', field.password ? 'password' : 'text']);
  }
}

/** Defaults prefilled, and the sandbox's URLs and credentials where the block takes them. */
function expectPrefill(field: FieldManifest, shown: Shown, prefill: Record<string, string>): void {
  const where = `field ${field.id}`;
  if (field.id === 'operation') return;
  if (prefill[field.id] !== undefined) return void expect(shown.value, where).toBe(prefill[field.id]);
  if (field.type === 'switch') {
    if (field.default === undefined) expect(shown.indeterminate, where).toBe(true);
    else expect([shown.indeterminate, shown.checked], where).toEqual([false, field.default]);
    return;
  }
  if (field.default === undefined) return void expect(shown.value, where).toBe('');
  const text = typeof field.default === 'string' ? field.default : JSON.stringify(field.default, null, 2);
  expect(shown.value, where).toBe(text);
}

async function run(): Promise<{ state: string; badge: string; body: string }> {
  await page.click('#run');
  await page.waitForSelector('#result[data-state="success"], #result[data-state="error"]');
  return {
    state: (await page.getAttribute('#result', 'data-state'))!,
    badge: await page.innerText('#result-badge'),
    // A refusal lists its issues instead of a body.
    body: (await page.$('#result-body')) ? await page.innerText('#result-body') : await page.innerText('#result-issues'),
  };
}

/** The Outputs table: the manifest's outputs of the operation, with the values of the last run. */
async function outputRows(): Promise<Record<string, string>> {
  const rows = await page.$$eval('#outputs tr[data-output]', (trs) =>
    trs.map((tr) => [tr.getAttribute('data-output')!, tr.querySelector('code.value')?.textContent ?? ''] as const),
  );
  return Object.fromEntries(rows);
}

describe('flowblocks preview in Chromium', () => {
  const blocks = listBlocks();

  it('lists every block with its own icon and colour', async () => {
    const items = await page.$$eval('.block-item', (nodes) =>
      nodes.map((node) => ({
        type: node.getAttribute('data-block'),
        name: node.querySelector('.name')!.textContent,
        svg: node.querySelector('.tile svg')?.outerHTML ?? '',
        background: getComputedStyle(node.querySelector('.tile')!).backgroundColor,
        iconWidth: node.querySelector('.tile svg')!.getBoundingClientRect().width,
      })),
    );
    expect(items.map((i) => i.type)).toEqual(blocks.map((b) => b.type));
    for (const [i, block] of blocks.entries()) {
      const { color, name } = block.manifest;
      const rgb = `rgb(${[1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16)).join(', ')})`;
      expect(items[i]).toMatchObject({ name, background: rgb });
      expect(items[i]!.svg).toContain('<path');
      expect(items[i]!.iconWidth).toBeGreaterThan(16);
    }
    expect(new Set(items.map((i) => i.svg)).size).toBe(blocks.length);
  });

  for (const block of blocks) {
    const { manifest } = block;
    const operations = manifest.fields[0]!.options!.map((o) => o.id);
    describe(`${manifest.name}`, () => {
      it.each(operations)(`operation %s shows exactly its fields, as the manifest says`, async (op) => {
        await openBlock(manifest.type);
        await pickOperation(op);
        const shown = await visibleFields();
        const expected = manifest.fields.filter((f) => f.id === 'operation' || !f.condition || f.condition.value.includes(op));
        expect(shown.map((s) => s.id)).toEqual(expected.map((f) => f.id));
        const prefill = sandboxConnection(sb).values[manifest.type] ?? {};
        for (const [i, field] of expected.entries()) {
          const s = shown[i]!;
          expect(s.displayed, field.id).toBe(true);
          expect(s.requiredMark, `required mark of ${field.id}`).toBe(field.requiredFor.includes(op));
          expectControl(field, s);
          expectPrefill(field, s, prefill);
        }
        expect(await page.inputValue('#f-operation')).toBe(op);
        const outputs = await page.$$eval('#outputs tr[data-output]', (trs) => trs.map((tr) => tr.getAttribute('data-output')));
        expect(outputs).toEqual(Object.keys(manifest.outputs[op] ?? {}));
        await page.screenshot({ path: join(SHOTS, 'operations', `${manifest.type}-${op}.png`), fullPage: true });
      });
    });
  }

  it('Tinybird: sends events, then counts them with a query, against the sandbox', async () => {
    await openBlock('tinybird');
    await pickOperation('events');
    await page.fill('#f-datasource', 'events');
    await page.fill(
      '#f-data',
      ['ada', 'grace'].map((u) => JSON.stringify({ timestamp: '2026-11-22 10:00:00', event: 'e2e_signup', user_id: u })).join('\n'),
    );
    await page.click('.field[data-field-id="wait"] .switch');
    const sent = await run();
    expect(sent.state, sent.body).toBe('success');
    expect(JSON.parse(sent.body)).toEqual({ successful_rows: 2, quarantined_rows: 0 });
    expect(await outputRows()).toEqual({ successful_rows: '2', quarantined_rows: '0' });

    await pickOperation('query');
    await page.fill('#f-query', "SELECT count() AS n FROM events WHERE event = 'e2e_signup' FORMAT JSON");
    const counted = await run();
    expect(counted.state, counted.body).toBe('success');
    expect(JSON.parse(counted.body)).toMatchObject({ data: [{ n: 2 }], rows: 1 });
    expect(counted.badge).toBe('success');
    expect(await page.innerText('#result .meta')).toMatch(/^tinybird_query · HTTP 200 · 1 attempt · \d+ ms$/);
    expect((await outputRows()).data).toBe('[{"n":2}]');
    await page.screenshot({ path: join(BLOCK_SHOTS, 'tinybird.png'), fullPage: true });
  });

  it('Tinybird: a query the service refuses shows its error, not a result', async () => {
    await openBlock('tinybird');
    await pickOperation('query');
    await page.fill('#f-query', 'SELEC nonsense FORMAT JSON');
    const refused = await run();
    expect(refused.state).toBe('error');
    expect(refused.badge).toBe('bad_request');
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'bad_request', status: 400 });
  });

  it('Loops: creates a contact and finds it, against the sandbox', async () => {
    await openBlock('loops');
    expect(await page.inputValue('#endpoint')).toBe(sb.urls.loops);
    await pickOperation('create_contact');
    await page.fill('#f-email', 'e2e.ada@example.com');
    await page.fill('#f-firstName', 'Ada');
    await page.fill('#f-customProperties', '{ "planName": "Pro" }');
    const created = await run();
    expect(created.state, created.body).toBe('success');
    const { id } = JSON.parse(created.body) as { id: string };
    expect(id).toMatch(/\S/);

    await pickOperation('find_contact');
    await page.fill('#f-email', 'e2e.ada@example.com');
    const found = await run();
    expect(found.state, found.body).toBe('success');
    expect(JSON.parse(found.body)).toMatchObject({ contacts: [{ id, email: 'e2e.ada@example.com', firstName: 'Ada' }] });
    await page.screenshot({ path: join(BLOCK_SHOTS, 'loops.png'), fullPage: true });
  });

  it('Loops: JSON that does not parse is refused before anything is sent', async () => {
    await openBlock('loops');
    await pickOperation('send_event');
    await page.fill('#f-email', 'e2e.ada@example.com');
    await page.fill('#f-eventName', 'e2e');
    await page.fill('#f-eventProperties', '{ plan: pro }');
    const refused = await run();
    expect(refused).toMatchObject({ state: 'error', badge: 'not run' });
    expect(refused.body).toContain('Event properties is not valid JSON');
    // Marked on the field itself, until it is edited.
    expect(await page.innerText('.field[data-field-id="eventProperties"] .field-error')).toBe('Event properties is not valid JSON');
    expect(await page.getAttribute('#f-eventProperties', 'aria-invalid')).toBe('true');
    await page.fill('#f-eventProperties', '{ "plan": "pro" }');
    expect(await page.$('.field[data-field-id="eventProperties"] .field-error')).toBeNull();
  });

  it('a required field left empty is marked on the field before anything is sent; a refused call lists its issues', async () => {
    await openBlock('tinybird');
    await pickOperation('query');
    await page.fill('#f-query', '');
    const refused = await run();
    expect(refused).toMatchObject({ state: 'error', badge: 'not run' });
    expect(await page.innerText('.field[data-field-id="query"] .field-error')).toBe('Query is required');
    expect(await page.$$eval('#result-issues li', (lis) => lis.map((li) => li.textContent))).toEqual(['query Query is required']);
    // The server's own refusal (an invalid base URL) is a list too, and marks the field it names.
    await page.fill('#f-query', 'SELECT 1 FORMAT JSON');
    const url = await page.inputValue('#f-base_url');
    await page.fill('#f-base_url', 'not a url');
    const invalid = await run();
    expect(invalid).toMatchObject({ state: 'error', badge: 'invalid_params' });
    expect(invalid.body).toMatch(/^base_url /);
    expect(await page.innerText('.field[data-field-id="base_url"] .field-error')).toMatch(/^Base URL: /);
    await page.fill('#f-base_url', url);
  });

  it('prefills working examples: the first Run of a query answers with data', async () => {
    await openBlock('tinybird');
    await pickOperation('query_pipe');
    expect(await page.inputValue('#f-pipe')).toBe('top_events');
    // A picker of the sandbox's pipes.
    expect(await page.$$eval('#f-pipe-choices option', (os) => os.map((o) => o.getAttribute('value')))).toEqual(['top_events']);
    const piped = await run();
    expect(piped.state, piped.body).toBe('success');
  });

  it('Workflow: executes the signup pipeline, against the sandbox', async () => {
    await openBlock('workflow');
    await pickOperation('execute');
    await page.fill('#f-workflowId', 'wf_signup_pipeline');
    await page.fill('#f-inputs', JSON.stringify({ email: 'e2e.grace@example.com', firstName: 'Grace', userId: 'e2e_grace' }, null, 2));
    const ran = await run();
    expect(ran.state, ran.body).toBe('success');
    expect(JSON.parse(ran.body)).toMatchObject({ success: true, output: { ingested: 1, welcomeSent: true } });
    expect((await outputRows()).executionId).toMatch(/^".+"$/);
    await page.screenshot({ path: join(BLOCK_SHOTS, 'workflow.png'), fullPage: true });
  });

  it('never shows a secret outside a password input, and loads nothing from elsewhere', async () => {
    const c = sb.credentials;
    const secrets = [c.tinybird.adminToken, c.loops.apiKey, c.workflow.apiKey];
    for (const block of blocks) {
      await openBlock(block.type);
      const text = await page.innerText('body');
      const passwordInputs = await page.$$eval('input[type="password"]', (inputs) => inputs.map((i) => (i as unknown as Control).value));
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(passwordInputs.length).toBeGreaterThan(0);
      const otherInputs = await page.$$eval('input:not([type="password"]), textarea', (inputs) => inputs.map((i) => (i as unknown as Control).value));
      for (const secret of secrets) expect(otherInputs.join('\n')).not.toContain(secret);
    }
    expect(offHost).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
