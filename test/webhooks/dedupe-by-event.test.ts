/**
 * Promise (issue 34): dedupe by event (`byExecutionId: false`) keeps two executions apart: two
 * events that share an event id but belong to two executions are two deliveries, each processed
 * once; a repeat of either is still a repeat.
 */
import { describe, expect, it } from 'vitest';
import { WebhookDeduplicator } from '../../src/webhooks/index.js';
import { EVENT, signedDelivery } from './fixtures.js';

const inExecution = (executionId: string, id = EVENT.id) => ({ ...EVENT, id, data: { ...EVENT.data, executionId } });

describe('promise: dedupe by event keeps two executions apart', () => {
  it('one event id in two executions: two deliveries, each once', async () => {
    const dedupe = new WebhookDeduplicator({ byExecutionId: false });
    const first = signedDelivery(inExecution('exec_a'), 'dlv_a').verified();
    const second = signedDelivery(inExecution('exec_b'), 'dlv_b').verified();
    expect(await dedupe.claim(first)).toBe(true);
    expect(await dedupe.claim(second)).toBe(true);
    expect(dedupe.key(first)).not.toBe(dedupe.key(second));
    // Their repeats (re-signed, under new delivery ids) are repeats.
    expect(await dedupe.claim(signedDelivery(inExecution('exec_a'), 'dlv_a2').verified())).toBe(false);
    expect(await dedupe.claim(signedDelivery(inExecution('exec_b'), 'dlv_b2').verified())).toBe(false);
  });

  it('two event ids in one execution: two deliveries; by execution (the default) one', async () => {
    const byEvent = new WebhookDeduplicator({ byExecutionId: false });
    const byExecution = new WebhookDeduplicator();
    const completion = signedDelivery(inExecution('exec_a', 'evt_done'), 'dlv_1').verified();
    const alert = signedDelivery(inExecution('exec_a', 'evt_alert'), 'dlv_2').verified();
    expect([await byEvent.claim(completion), await byEvent.claim(alert)]).toEqual([true, true]);
    expect([await byExecution.claim(completion), await byExecution.claim(alert)]).toEqual([true, false]);
  });

  it('ids that would run together when joined stay apart ("a|b" + "c" is not "a" + "b|c")', async () => {
    const dedupe = new WebhookDeduplicator({ byExecutionId: false });
    expect(await dedupe.claim(signedDelivery(inExecution('b|c', 'evt_a'), 'dlv_1').verified())).toBe(true);
    expect(await dedupe.claim(signedDelivery(inExecution('c', 'evt_a|b'), 'dlv_2').verified())).toBe(true);
  });
});
