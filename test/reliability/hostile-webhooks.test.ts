/**
 * Hostile input, webhooks and CLI JSON parts. Webhooks: an attacker who captured one signed
 * delivery replays it inside the five-minute window under delivery ids of their choosing
 * (new ones, ones a later genuine delivery will carry, 8 KB ones by the thousand), or sends
 * deliveries that do not verify. CLI JSON: a token in `run --params` or the `mcp --config`
 * file next to a syntax error must not be quoted back in the error.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEDUPE_ENTRY_BYTES,
  MemoryDedupeStore,
  signLoopsWebhook,
  verifyLoopsWebhook,
  verifyWebhook,
  WebhookVerificationError,
  WebhookDeduplicator,
  type DedupeStore,
  type HeaderSource,
} from '../../src/webhooks/index.js';
import { cli } from '../cli/run-cli.js';
import { OTHER_EVENT, SECRET, signedDelivery, T } from '../webhooks/fixtures.js';
import { canary } from './canary.js';
import { flatId, heapGrowth } from './heap.js';
import { hostileTally } from './tally.js';

const family = hostileTally('webhooks');
const cliFamily = hostileTally('cli-json');
afterAll(() => {
  family.save();
  cliFamily.save();
});

const REPLAYS = 20_000;
const ID_BYTES = 8192;

/** A store that records every key it is asked to claim. */
function recordingStore() {
  const inner = new MemoryDedupeStore();
  const claimed: string[] = [];
  const store: DedupeStore = {
    claim: (key, ttlMs) => {
      claimed.push(key);
      return inner.claim(key, ttlMs);
    },
    release: (key) => inner.release(key),
  };
  return { store, inner, claimed };
}

/** The captured delivery's headers, with the delivery id an attacker chose. */
const withDeliveryId = (headers: Record<string, string>, id: string): HeaderSource => ({ ...headers, 'svc-delivery-id': id, 'Idempotency-Key': id });

describe('hostile webhooks: replays and unverified deliveries against the deduplicator', () => {
  it.each([true, false])('a replay in the window under a new delivery id is a duplicate (byExecutionId: %s)', async (byExecutionId) => {
    const dedupe = new WebhookDeduplicator({ byExecutionId });
    const captured = signedDelivery();
    const first = await dedupe.claim(captured.headers, captured.verified());
    const replayed = withDeliveryId(captured.headers, 'dlv_attacker');
    const event = verifyWebhook({ body: captured.body, headers: replayed, secret: SECRET, now: T + 4 * 60_000 });
    const replay = await dedupe.claim(replayed, event);
    expect(family.record(first && !replay)).toBe(true);
  });

  it('a later genuine delivery with the delivery id an attacker replayed under is processed', async () => {
    const dedupe = new WebhookDeduplicator();
    const captured = signedDelivery(undefined, 'dlv_1');
    await dedupe.claim(captured.headers, captured.verified());
    const replayed = withDeliveryId(captured.headers, 'dlv_2');
    await dedupe.claim(replayed, verifyWebhook({ body: captured.body, headers: replayed, secret: SECRET, now: T + 1_000 }));
    const next = signedDelivery(OTHER_EVENT, 'dlv_2', T + 2_000);
    expect(family.record(await dedupe.claim(next.headers, next.verified()))).toBe(true);
  });

  it('an unsigned, forged or stale delivery never claims a key, even from a receiver that skips verifying', async () => {
    const { store, claimed } = recordingStore();
    const dedupe = new WebhookDeduplicator({ store });
    const genuine = signedDelivery();
    const attempts: { name: string; headers: HeaderSource; now: number }[] = [
      { name: 'unsigned', headers: { 'svc-delivery-id': 'dlv_1', 'Idempotency-Key': 'dlv_1' }, now: T },
      { name: 'forged', headers: { ...genuine.headers, 'svc-signature': `t=${T},v1=${'ab'.repeat(32)}` }, now: T },
      { name: 'stale', headers: genuine.headers, now: T + 6 * 60_000 },
    ];
    for (const attempt of attempts) {
      const verifies = (() => {
        try {
          verifyWebhook({ body: genuine.body, headers: attempt.headers, secret: SECRET, now: attempt.now });
          return true;
        } catch {
          return false;
        }
      })();
      // A careless receiver hands over the parsed body, or a copy of a verified event: refused.
      const unverified = [JSON.parse(genuine.body) as never, { ...genuine.verified() }];
      const refused = await Promise.all(unverified.map((event) => dedupe.claim(attempt.headers, event).then(() => false, (error: unknown) => error instanceof TypeError)));
      expect(family.record(!verifies && refused.every(Boolean)), attempt.name).toBe(true);
    }
    expect(family.record(claimed.length === 0)).toBe(true);
    // The genuine delivery still gets through afterwards.
    expect(family.record(await dedupe.claim(genuine.headers, genuine.verified()))).toBe(true);
  });

  it(`${REPLAYS} replays with ${ID_BYTES / 1024} KB delivery ids: one processed, one key kept, memory flat`, async () => {
    const store = new MemoryDedupeStore();
    const dedupe = new WebhookDeduplicator({ store });
    const captured = signedDelivery();
    expect(await dedupe.claim(captured.headers, captured.verified())).toBe(true);
    let processed = 0;
    const grew = await heapGrowth(async () => {
      for (let i = 0; i < REPLAYS; i++) {
        const replayed = withDeliveryId(captured.headers, flatId(ID_BYTES, i));
        const event = verifyWebhook({ body: captured.body, headers: replayed, secret: SECRET, now: T + 60_000 });
        if (await dedupe.claim(replayed, event)) processed++;
      }
    });
    expect(family.record(processed === 0)).toBe(true);
    expect(family.record(store.size === 1 && store.bytes === DEDUPE_ENTRY_BYTES)).toBe(true);
    // The ids alone are 164 MB; what stays must be well under one of them per thousand replays.
    expect(family.record(grew < 2 * 1024 * 1024)).toBe(true);
    family.note(`${REPLAYS} replays of one signed delivery with ${ID_BYTES}-byte delivery ids: 0 processed, 1 key kept (${store.bytes} bytes accounted)`);
  });
});

/**
 * Every 6-character piece of the canary: a message may not carry even part of it. The kinds
 * below (`prm`, `cfg`) are no words of the usage text, so no piece occurs there by chance.
 */
function pieces(secret: string): string[] {
  return Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6));
}

function leaksPart(output: string, secret: string): boolean {
  return pieces(secret).some((piece) => output.includes(piece));
}

describe('hostile Loops webhooks: a captured delivery replayed inside the window (issue 30, item 6)', () => {
  const LOOPS_SECRET = `whsec_${Buffer.from('loops-replay-signing-key-30').toString('base64')}`;
  const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
  const body = JSON.stringify({ eventName: 'email.hardBounced', eventTime: NOW / 1000, webhookSchemaVersion: '1.0.0', contactIdentity: { id: 'c1', email: 'a@b.co' } });
  const captured = signLoopsWebhook({ body, secret: LOOPS_SECRET, id: 'msg_2Kq7', timestamp: NOW / 1000 });
  const verify = (headers: Record<string, string>, at: number) => verifyLoopsWebhook({ body, headers, secret: LOOPS_SECRET, now: at });

  it('the same signed delivery verified again 4 minutes later is a duplicate, through any store', async () => {
    const { store, claimed } = recordingStore();
    const dedupe = new WebhookDeduplicator({ store });
    const first = await dedupe.claim(verify(captured, NOW));
    const replays = [];
    for (const minutes of [0, 1, 4]) replays.push(await dedupe.claim(verify(captured, NOW + minutes * 60_000)));
    // The event inside is known by the same signed id: a receiver that passes it gets the same answer.
    replays.push(await dedupe.claim(verify(captured, NOW + 60_000).event));
    family.record(first && replays.every((r) => r === false));
    expect([first, ...replays]).toEqual([true, false, false, false, false]);
    expect(new Set(claimed).size).toBe(1);
    expect(claimed[0]).toMatch(/^webhook:[\w-]{43}$/);
    family.note('Loops webhooks: one signed delivery verified 5 times inside the window (the wrapper and its event): 1 processed, 1 key in the store; a replay under another webhook-id fails its signature');
  });

  it('a replay under another webhook-id does not verify, so it claims nothing; a genuine new message is processed', async () => {
    const { store, claimed } = recordingStore();
    const dedupe = new WebhookDeduplicator({ store });
    expect(await dedupe.claim(verify(captured, NOW))).toBe(true);
    let reason: string | undefined;
    try {
      verify({ ...captured, 'webhook-id': 'msg_attacker' }, NOW);
    } catch (error) {
      reason = (error as WebhookVerificationError).reason;
    }
    family.record(reason === 'bad_signature');
    expect(reason).toBe('bad_signature');
    const next = signLoopsWebhook({ body, secret: LOOPS_SECRET, id: 'msg_2Kq8', timestamp: NOW / 1000 });
    expect(family.record(await dedupe.claim(verify(next, NOW)))).toBe(true);
    expect(claimed).toHaveLength(2);
  });

  it('a look-alike of a verified Loops delivery (a copy, a parsed body) never claims a key', async () => {
    const dedupe = new WebhookDeduplicator();
    const verified = verify(captured, NOW);
    for (const fake of [{ ...verified }, { id: verified.id, timestamp: verified.timestamp, event: JSON.parse(body) }, JSON.parse(body)]) {
      let thrown: unknown;
      try {
        await dedupe.claim(fake);
      } catch (error) {
        thrown = error;
      }
      expect(family.record(thrown instanceof TypeError)).toBe(true);
    }
  });
});

describe('hostile CLI JSON: a syntax error next to a token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowblocks-json-'));

  const paramsCases = (token: string) => [
    { name: 'a stray word after the token', text: `{"token":"${token}", oops}` },
    { name: 'a bare word as the next value', text: `{"token":"${token}", "base_url": oops}` },
    { name: 'the token unquoted', text: `{"token":${token}}` },
    { name: 'the token in a list, a bare word after it', text: `{"tokens":["${token}",oops]}` },
  ];

  it.each(paramsCases('canary').map((c) => [c.name] as const))('run --params: %s', async (name) => {
    const token = canary('prm');
    const { text } = paramsCases(token).find((c) => c.name === name)!;
    const out = await cli(['run', 'tinybird_query', '--params', text]);
    const output = out.stdout + out.stderr;
    const ok = out.code === 2 && /--params is not valid JSON: .* at line 1, column \d+ \(position \d+\)/.test(out.stderr) && !leaksPart(output, token);
    expect(cliFamily.record(ok), output).toBe(true);
  });

  const configCases = (token: string) => [
    { name: 'a bare word right after the token', line: 5, text: `{\n  "services": ["tinybird"],\n  "settings": {\n    "tinybird": {\n      "token": "${token}", "base_url": oops\n    }\n  }\n}\n` },
    { name: 'the token unquoted', line: 4, text: `{\n  "services": ["tinybird"],\n  "settings": { "tinybird": {\n    "token": ${token}\n  } }\n}\n` },
    { name: 'a missing comma after the token', line: 4, text: `{\n  "settings": {\n    "tinybird": {\n      "token": "${token}" "base_url": "https://api.tinybird.co"\n    }\n  }\n}\n` },
  ];

  it.each(configCases('canary').map((c) => [c.name] as const))('mcp --config: %s', async (name) => {
    const token = canary('cfg');
    const { text, line } = configCases(token).find((c) => c.name === name)!;
    const file = join(dir, `${name.replaceAll(' ', '-')}.json`);
    writeFileSync(file, text);
    const out = await cli(['mcp', '--config', file]);
    const output = out.stdout + out.stderr;
    const ok = out.code === 2 && out.stderr.includes(`the config file ${file} is not valid JSON`) && new RegExp(`at line ${line}, column \\d+ \\(position \\d+\\)`).test(out.stderr) && !leaksPart(output, token);
    expect(cliFamily.record(ok), output).toBe(true);
  });

  afterAll(() => cliFamily.note(`${paramsCases('').length} --params and ${configCases('').length} config-file syntax errors beside a token: none quoted any 6 characters of it`));
});
