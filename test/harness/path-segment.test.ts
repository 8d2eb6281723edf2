import { describe, expect, it } from 'vitest';
import { ToolFailure } from '../../src/harness/errors.js';
import { pathIdParam, pathSegment } from '../../src/harness/define/path-segment.js';

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

  // Fullwidth, small-form and leader dots, a fullwidth solidus, a ligature: NFKC makes them `..`, `.`, `/` or other letters.
  it.each(['\uff0e\uff0e', '\ufe52\ufe52', '\u2025', '\uff0e', 'a\uff0fb', '\ufb01le', 'cafe\u0301'])('pathSegment and pathIdParam refuse %j, which changes under NFKC', (id) => {
    let thrown: unknown;
    try {
      pathSegment(id);
    } catch (error) {
      thrown = error;
    }
    const message = `${JSON.stringify(id)} cannot be a path segment: it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it`;
    expect((thrown as ToolFailure).error).toEqual({ code: 'invalid_params', message: `invalid params: ${message}`, retryable: false, issues: [{ path: '', message }] });
    const parsed = pathIdParam('An id').safeParse(id);
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual(['cannot be used: it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it']);
  });

  it('sends any other id as one percent-encoded segment', () => {
    expect(pathSegment('caf\u00e9')).toBe('caf%C3%A9');
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
