import { describe, expect, it } from 'vitest';
import { workflowExecutionCompletedEventSchema as schema } from '../../src/webhooks/index.js';
import { EVENT } from './fixtures.js';

/**
 * The receiver's schema of `workflow.execution.completed`, field by field: what a verified
 * delivery must hold before a handler sees it. (Built at import, so the mutation run does not
 * measure it: these tests are its check.)
 */
type Event = typeof EVENT;
const withData = (data: Record<string, unknown>) => ({ ...EVENT, data: { ...EVENT.data, ...data } });
const without = <K extends keyof Event['data']>(key: K) => {
  const data: Partial<Event['data']> = { ...EVENT.data };
  delete data[key];
  return { ...EVENT, data };
};
const pathsOf = (value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
};

describe('the workflow.execution.completed event a receiver accepts', () => {
  it('accepts the spec payload as it is, and keeps a sender’s extra fields at both levels', () => {
    expect(schema.parse(EVENT)).toEqual(EVENT);
    const extra = { ...EVENT, workflowName: 'Orders', data: { ...EVENT.data, region: 'eu' } };
    expect(schema.parse(extra)).toEqual(extra);
  });

  it('accepts an event without links, and without each optional data field', () => {
    const { links: _links, ...noLinks } = EVENT;
    expect(schema.safeParse(noLinks).success).toBe(true);
    for (const key of ['files', 'finalOutput'] as const) expect(pathsOf(without(key)), key).toEqual([]);
    for (const [key, value] of [['traceSpans', [{ name: 'step' }]], ['rateLimits', { rpm: 10 }], ['usage', { tokens: 3 }]] as const) {
      expect(pathsOf(withData({ [key]: value })), key).toEqual([]);
    }
  });

  it('refuses each required field missing', () => {
    for (const key of ['workflowId', 'executionId', 'status', 'level', 'trigger', 'startedAt', 'endedAt', 'totalDurationMs', 'cost'] as const) {
      expect(pathsOf(without(key)), key).toEqual([`data.${key}`]);
    }
    for (const key of ['id', 'type', 'timestamp', 'data'] as const) {
      const event: Record<string, unknown> = { ...EVENT };
      delete event[key];
      expect(pathsOf(event), key).toEqual([key]);
    }
  });

  it('refuses values of the wrong kind, field by field', () => {
    expect(pathsOf({ ...EVENT, id: '' })).toEqual(['id']);
    expect(pathsOf({ ...EVENT, type: 'workflow.execution.started' })).toEqual(['type']);
    expect(pathsOf({ ...EVENT, timestamp: -1 })).toEqual(['timestamp']);
    expect(pathsOf({ ...EVENT, timestamp: 1.5 })).toEqual(['timestamp']);
    expect(pathsOf({ ...EVENT, timestamp: '1795000000000' })).toEqual(['timestamp']);
    expect(pathsOf(withData({ level: 'warning' }))).toEqual(['data.level']);
    expect(pathsOf(withData({ level: 'error' }))).toEqual([]);
    expect(pathsOf(withData({ startedAt: '2026-11-22 09:07' }))).toEqual(['data.startedAt']);
    expect(pathsOf(withData({ endedAt: '2026-11-22T09:07:02' }))).toEqual(['data.endedAt']);
    expect(pathsOf(withData({ startedAt: '2026-11-22T10:07:00+01:00' }))).toEqual([]);
    expect(pathsOf(withData({ totalDurationMs: -1 }))).toEqual(['data.totalDurationMs']);
    expect(pathsOf(withData({ totalDurationMs: 0 }))).toEqual([]);
    expect(pathsOf(withData({ cost: {} }))).toEqual(['data.cost.total']);
    expect(pathsOf(withData({ finalOutput: ['a'] }))).toEqual(['data.finalOutput']);
    expect(pathsOf(withData({ traceSpans: {} }))).toEqual(['data.traceSpans']);
    expect(pathsOf(withData({ rateLimits: 5 }))).toEqual(['data.rateLimits']);
    expect(pathsOf(withData({ usage: 'lots' }))).toEqual(['data.usage']);
  });

  it('refuses links that are not the logs API paths of this execution’s kind', () => {
    const links = (value: object) => pathsOf({ ...EVENT, links: { ...EVENT.links, ...value } });
    expect(links({ log: 'https://evil.test/v1/logs/log_7' })).toEqual(['links.log']);
    expect(links({ log: '/v1/logs/log_7/extra' })).toEqual(['links.log']);
    expect(links({ log: '/v1/logs/' })).toEqual(['links.log']);
    expect(links({ execution: '/v1/logs/executions/exec_7/x' })).toEqual(['links.execution']);
    expect(links({ execution: '/v1/logs/exec_7' })).toEqual(['links.execution']);
    expect(pathsOf({ ...EVENT, links: { log: '/v1/logs/log_7' } })).toEqual(['links.execution']);
    const refused = schema.safeParse({ ...EVENT, links: { ...EVENT.links, log: '/x' } });
    expect(refused.success ? '' : refused.error.issues[0]!.message).toBe('a path of the form /v1/logs/<log_id>');
  });
});
