/**
 * The HTTP server's serialized call result: the same text as `toMcpResult`'s JSON, with the
 * structured content serialized once (its JSON is the text's).
 */
import { describe, expect, it } from 'vitest';
import type { AgentToolResult } from '../../src/hosts/agents/executor.js';
import { toMcpResult, toMcpResultJson } from '../../src/hosts/agents/mcp-tools.js';

const results: [string, AgentToolResult][] = [
  ['an output', { ok: true, output: { data: [{ n: 1, day: '2026-11-22' }], rows: 1 } }],
  ['an output with notes and a cut', { ok: true, output: [1, 2], truncated: { field: 'output', returned: 5, total: 9, unit: 'bytes' }, notes: ['cut "here"\n'] } as AgentToolResult],
  ['a string output with characters JSON escapes', { ok: true, output: 'line\n"quoted" \\ \u2028 \ud83d\ude00 </script>' }],
  ['an error', { ok: false, error: { code: 'invalid_params', message: 'query: expected string', retryable: false, issues: [{ path: 'query', message: 'expected string' }] } } as AgentToolResult],
];

describe('toMcpResultJson', () => {
  for (const [name, result] of results) {
    it(`serializes ${name} exactly as JSON.stringify(toMcpResult(...)) does`, () => {
      expect(toMcpResultJson(result)).toBe(JSON.stringify(toMcpResult(result)));
    });
  }

  it('serializes a successful output once, not once per copy', () => {
    let serialized = 0;
    const output = { toJSON: () => ((serialized += 1), { rows: 1 }) };
    const text = toMcpResultJson({ ok: true, output } as AgentToolResult);
    expect(JSON.parse(text)).toEqual({ content: [{ type: 'text', text: '{"output":{"rows":1}}' }], structuredContent: { output: { rows: 1 } } });
    expect(serialized).toBe(1);
  });
});
