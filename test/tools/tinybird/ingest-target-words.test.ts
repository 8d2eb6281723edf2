/**
 * ingestEvents says what is wrong with its target in executeTool's words (#42): a missing
 * token is `token: required (expected string)`, in the issues and in the message, and nothing
 * is sent.
 */
import { describe, expect, it } from 'vitest';
import { executeTool } from '../../../src/index.js';
import { ingestEvents } from '../../../tools/tinybird/index.js';
import { BASE, tinybird } from './setup.js';

describe('ingestEvents without a token', () => {
  it('is invalid_params with token: required, as executeTool says it', async () => {
    const tb = tinybird();
    const target = { base_url: BASE, datasource: 'events' } as Parameters<typeof ingestEvents>[0];
    const thrown = await ingestEvents(target, ['{"a":1}\n'], { dispatcher: tb.agent }).then(
      () => undefined,
      (error: { error: { code: string; message: string; issues: unknown[] } }) => error.error,
    );
    expect(thrown).toEqual({
      code: 'invalid_params',
      message: 'invalid ingest target: token: required (expected string)',
      retryable: false,
      issues: [{ path: 'token', message: 'required (expected string)' }],
    });
    const tool = await executeTool('tinybird_events', { base_url: BASE, datasource: 'events', data: '{"a":1}\n' } as never, { dispatcher: tb.agent });
    expect(tool).toMatchObject({ success: false, error: { issues: [{ path: 'token', message: 'required (expected string)' }] } });
    expect(tb.requests).toHaveLength(0);
  });
});
