import { describe, expect, it } from 'vitest';
import { ToolFailure } from '../../src/harness/errors.js';
import { pathIdParam, pathSegment } from '../../src/harness/path-segment.js';

describe('ids that go into a URL path', () => {
  it.each(['', '.', '..'])('pathSegment refuses %j as invalid_params, naming why', (id) => {
    let thrown: unknown;
    try {
      pathSegment(id);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolFailure);
    const message = `${JSON.stringify(id)} cannot be a path segment: a server would read it as a move in the URL path`;
    expect((thrown as ToolFailure).error).toEqual({ code: 'invalid_params', message: `invalid params: ${message}`, retryable: false, issues: [{ path: '', message }] });
  });

  it('sends any other id as one percent-encoded segment', () => {
    expect(pathSegment('a/b?c#d')).toBe('a%2Fb%3Fc%23d');
    expect(pathSegment('...')).toBe('...');
    expect(pathSegment('.hidden')).toBe('.hidden');
    expect(pathSegment('%2e%2e')).toBe('%252e%252e');
  });

  it('pathIdParam refuses empty, . and .. with the reason, and takes anything else', () => {
    const param = pathIdParam('An execution id');
    expect(param.description).toBe('An execution id');
    for (const id of ['.', '..']) {
      const parsed = param.safeParse(id);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('cannot be "." or "..": a server would read it as a move in the URL path');
    }
    expect(param.safeParse('').success).toBe(false);
    for (const id of ['...', '.x', 'exec_1', 'a/b']) expect(param.safeParse(id)).toEqual({ success: true, data: id });
  });
});
