import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../src/testing/catalog.js';
import { matchRoute } from '../../src/testing/routes.js';

const match = async (method: string, path: string, contentType = '', order: 'as listed' | 'reversed' = 'as listed') => {
  const routes = await builtinCatalog().routes();
  const url = new URL(path, 'http://x.invalid');
  return matchRoute(order === 'reversed' ? [...routes].reverse() : routes, method, url.pathname, url.searchParams, contentType);
};

describe('routes from the tools’ own request builders', () => {
  it.each(['as listed', 'reversed'] as const)('the most specific path wins whatever the order (%s)', async (order) => {
    expect(await match('GET', '/v0/pipes/top.json?day=1', '', order)).toEqual({ toolId: 'tinybird_query_pipe', pathParams: { pipe: 'top' } });
    expect(await match('GET', '/v0/pipes/top', '', order)).toEqual({ toolId: 'tinybird_get_pipe', pathParams: { pipe: 'top' } });
    expect(await match('POST', '/v0/jobs/j1/cancel', '', order)).toEqual({ toolId: 'tinybird_cancel_job', pathParams: { job_id: 'j1' } });
  });

  it.each(['as listed', 'reversed'] as const)('one path, two tools: the body’s media type tells them apart (%s)', async (order) => {
    const path = '/v0/datasources?mode=append&name=events&format=csv';
    expect((await match('POST', path, 'application/x-www-form-urlencoded', order))?.toolId).toBe('tinybird_append_datasource');
    expect((await match('POST', path, 'multipart/form-data; boundary=x', order))?.toolId).toBe('tinybird_append_data');
  });

  it('takes any base path before the tool’s own, and decodes path values', async () => {
    expect(await match('GET', '/loops/api/v1/transactional-emails/abc%2F1')).toEqual({ toolId: 'loops_get_transactional_email', pathParams: { transactionalId: 'abc/1' } });
    expect(await match('GET', '/api/v1/event-patterns/by-name/sign%20up')).toEqual({ toolId: 'loops_get_event_pattern', pathParams: { eventName: 'sign up' } });
    expect(await match('GET', '/api/v1/event-patterns/pat_1')).toEqual({ toolId: 'loops_get_event_pattern', pathParams: { eventPatternId: 'pat_1' } });
  });

  it('finds the fallback a composed tool makes only on a failure', async () => {
    expect((await match('GET', '/api/v1/transactional?perPage=20'))?.toolId).toBe('loops_list_transactional_emails');
  });

  it('matches nothing for a method or path no tool uses', async () => {
    expect(await match('DELETE', '/v0/sql')).toBeUndefined();
    expect(await match('GET', '/v0/sqlx')).toBeUndefined();
    expect(await match('GET', '/v0/pipes/a/b.json')).toBeUndefined();
  });
});
