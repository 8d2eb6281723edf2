import type { ToolIssue } from './types.js';

/**
 * What is wrong with `options.endpoints`: a URL that is not http(s), and, when `known` is
 * given, a name that is no service's (a typo would otherwise send the call to the real service).
 */
export function endpointIssues(endpoints: Record<string, unknown> | undefined, known?: readonly string[]): ToolIssue[] {
  if (!endpoints) return [];
  const issues: ToolIssue[] = [];
  for (const [service, url] of Object.entries(endpoints)) {
    const path = `endpoints.${service}`;
    if (known && !known.includes(service)) {
      issues.push({ path, message: `no service named ${JSON.stringify(service)} (known: ${known.join(', ')})` });
      continue;
    }
    let parsed: URL | undefined;
    try {
      parsed = typeof url === 'string' ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      issues.push({ path, message: `not an http(s) URL: ${JSON.stringify(url)}` });
    }
  }
  return issues;
}
