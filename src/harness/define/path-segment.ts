import { z } from 'zod';
import { failure } from '../errors.js';

/**
 * Ids that go into a URL path. Percent-encoding keeps `/`, `?` and `#` inside the segment,
 * but `encodeURIComponent('..') === '..'`, and servers and proxies resolve the dot segments
 * `.` and `..` (RFC 3986, 5.2.4): `/logs/executions/..` would reach `/logs`. An empty id
 * would reach the collection. These three are refused; any other id is sent encoded.
 */
const isDotSegment = (id: string) => id === '.' || id === '..';

const DOT_SEGMENT = 'cannot be "." or "..": a server would read it as a move in the URL path';

/**
 * A server or proxy that applies Unicode NFKC normalization reads `．．` (fullwidth), `﹒﹒`
 * (small form) and `‥` (two-dot leader) as `..`, and `／` as `/`. Rather than list look-alikes,
 * any text NFKC would change is refused: ids and paths are sent as they will be read.
 */
export const changesUnderNfkc = (text: string) => text.normalize('NFKC') !== text;

export const NFKC_REASON = 'it changes under Unicode NFKC normalization, and a server that normalizes could read a look-alike of . , .. or / in it';

/** A param that goes into a URL path: `invalid_params`, the field named, when it is empty, `.`, `..` or changes under NFKC. */
export function pathIdParam(description: string) {
  return z
    .string()
    .min(1)
    .refine((id) => !isDotSegment(id), { error: DOT_SEGMENT })
    .refine((id) => !changesUnderNfkc(id), { error: `cannot be used: ${NFKC_REASON}` })
    .describe(description);
}

/**
 * One path segment, percent-encoded. Every tool builds its paths with this, so an id that
 * slipped past its param schema is still refused here, before anything is sent.
 */
export function pathSegment(id: string): string {
  if (id === '' || isDotSegment(id)) {
    const message = `${JSON.stringify(id)} cannot be a path segment: a server would read it as a move in the URL path`;
    throw failure('invalid_params', `invalid params: ${message}`, { issues: [{ path: '', message }] });
  }
  if (changesUnderNfkc(id)) {
    const message = `${JSON.stringify(id)} cannot be a path segment: ${NFKC_REASON}`;
    throw failure('invalid_params', `invalid params: ${message}`, { issues: [{ path: '', message }] });
  }
  return encodeURIComponent(id);
}
