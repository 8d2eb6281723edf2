import { BoundedCache } from '../bounded-cache.js';
import type { ToolIssue } from '../types.js';

/** A URL's check, by its text: callers pass the same few on every call (`new URL` twice a call was measurable: docs/benchmarks.md). */
const checked = new BoundedCache<string, boolean>(256);

function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

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
    if (typeof url !== 'string' || !checked.get(url, isHttpUrl)) {
      issues.push({ path, message: `not an http(s) URL: ${JSON.stringify(url)}` });
    }
  }
  return issues;
}
