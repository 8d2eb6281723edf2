/**
 * Equivalent mutants: code whose every mutant behaves as the original (a fast path the general
 * path repeats, a guard no input reaches past an earlier check, a default Node applies anyway),
 * so no test can kill it. They are listed here, each with its reason, rather than marked with
 * `// Stryker disable` comments in production files; docs/testing.md ("Equivalent mutants")
 * says when an entry belongs here. A Stryker ignore plugin (`ignorers: ["equivalent-mutants"]`)
 * skips every mutant inside a listed node; test/mutation/equivalent-mutants.test.ts checks that
 * each entry still names exactly one node and that no production file carries the comment.
 *
 * An entry names its node by file and source text (whitespace collapsed), not by line, so
 * edits elsewhere in the file leave it in place; `in` narrows a short text to the node inside
 * the named enclosing code.
 */
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** @type {{ file: string, code: string, in?: string, reason: string }[]} */
export const EQUIVALENT_MUTANTS = [
  // Fast paths: turning one down leaves the general path, which gives the same result.
  { file: 'src/harness/pace/header-figures.ts', code: 'isPlainDigits(value)', reason: 'a fast path; without it the general grammar reads the same number' },
  { file: 'src/harness/pace/header-figures.ts', code: 'if (value.length > 15) return false;', reason: 'a fast path; a longer figure takes the general grammar, which reads the same number' },
  { file: 'src/harness/pace/pacer.ts', code: '{ this.reserve(state, at); return this.turn(spec.key, state); }', reason: 'the fast path; without it the call queues and drain lets it go at once, in the same tick of the clock' },
  { file: 'src/harness/bounded-cache.ts', code: 'if (entries.size > 1 && this.last !== key) {', reason: 'a shortcut only; moving the newest key to the newest end changes no order' },
  { file: 'src/harness/run/execute.ts', code: 'sent.some((value, i) => value !== given[i])', reason: 'a fast path; adding secrets the redactor already has changes nothing' },
  { file: 'src/harness/send/answer.ts', code: "bodyKind === 'json' && bytes.length >= RAW_SCAN_MIN_BYTES", reason: 'the raw-bytes secret scan is a shortcut: the same result either way, only the time differs' },
  { file: 'src/satellites/notifications/rule-engine.ts', code: 'history.runs.length > MAX_RUNS_KEPT', reason: 'splice with a count of 0 or less removes nothing, so the check only saves a call' },

  // Speed only: the value changes how fast, never what.
  { file: 'src/harness/send/gzip.ts', code: 'function gzipChunkSize(payload: string | Uint8Array): number {', reason: "the output buffer's size changes how fast a body is gzipped (bench: ingest), never its bytes" },
  { file: 'src/harness/send/gzip.ts', code: '{ chunkSize: gzipChunkSize(payload) }', reason: 'the chunk size is speed only' },

  // Unreachable: an earlier check already refused what this one would.
  { file: 'src/harness/define/custom-call.ts', code: "if (url.origin !== root.origin) throw refuse(`leaves the service's origin ${root.origin}`);", reason: 'unreachable past unsafePathReason, which refuses every path that could leave the origin' },
  { file: 'src/harness/define/custom-call.ts', code: "if (url.pathname !== `${basePath}${encoded}` || !url.pathname.startsWith(`${basePath}/`)) throw refuse(`leaves the service's base path ${basePath || '/'}`);", reason: 'unreachable past unsafePathReason, which refuses every path that could leave the base path' },
  { file: 'src/harness/define/custom-call.ts', code: "if (request.url !== url) throw failure('invalid_params', 'invalid params: path leaves the service\\'s base URL', { issues: [{ path: 'path', message: 'leaves the base URL' }] });", reason: 'unreachable while connection.request joins base and path as given' },
  { file: 'src/satellites/sandbox/tinybird/sql-gate.ts', code: 'error instanceof AstShapeError', reason: 'parseExplainAst throws only AstShapeError; anything else would be a bug of ours, rethrown' },
  { file: 'src/satellites/notifications/redis/state-store.ts', code: 'if (this.failure) return;', reason: 'write() checks the failure before it writes anything' },
  { file: 'tools/tinybird/ingest/send-chunks.ts', code: 'skip + 1', reason: 'only read once stopped, and a stop needs an answer to a send, which first moves it past its chunk' },
  { file: 'tools/tinybird/events.ts', code: 'if (last) yield last;', reason: 'the whole input is pushed at once and the chunker cuts a full buffer only when more bytes follow, so flush always holds the last line' },

  // The same result by another route: a default Node or the language applies anyway.
  { file: 'src/harness/pace/pacer.ts', code: 'Math.ceil(ms) + 1', reason: '`- 1` fires 1–2 ms early; drain finds the wait not over and re-arms (Node runs a delay under 1 ms after 1 ms), so nothing starts early' },
  { file: 'src/harness/run/compiled.ts', code: 'if (compile) fast = compile(schema);', reason: "without the check, the absent compile's call throws and is caught below, to the same end" },
  { file: 'src/harness/send/sleep.ts', code: 'timer?.cancel', reason: 'an abort runs this only after arm() has set the timer (nothing runs between the two)' },
  { file: 'src/harness/send/timers.ts', code: 'handle.unref?.()', reason: "Node's timers always have unref; the `?.` is for runtimes whose timers are numbers" },
  { file: 'src/redis/pacer.ts', code: "''", in: "[...queue.keys, turnId, spec.windowMs ?? 1_000, this.leaseMs, spec.limit ?? '']", reason: "any text that is not a number reads as no limit in the scripts (Lua's tonumber gives nil), as '' does" },
  { file: 'src/webhooks/signature.ts', code: "'utf8'", in: "Buffer.from(secret, 'utf8')", reason: "Buffer.from reads a string as UTF-8 when the encoding is '' too" },
  { file: 'src/webhooks/signature.ts', code: "typeof body === 'string' ? Buffer.from(body, 'utf8') : body", reason: 'Hmac.update hashes a string as UTF-8 and Buffer.from copies bytes as they are, so either branch gives the same digest for either kind of body' },
  { file: 'src/webhooks/key-digest.ts', code: "'utf8'", reason: "Node hashes a string as UTF-8 when no encoding (or '') is given; 'utf8' only says so" },
  { file: 'src/webhooks/errors.ts', code: 'if (issues) this.issues = issues;', reason: 'the class field already makes `issues` an own property (undefined), so assigning undefined changes nothing' },
  { file: 'src/satellites/notifications/redis/state-store.ts', code: 'this.next?.text', reason: '`next` is set here (only this line clears it, after reading it at the top of the loop)' },
  { file: 'src/satellites/notifications/rules.ts', code: "case 'no_activity': return undefined;", reason: 'without this case no_activity falls out of the switch, which returns undefined too' },
  { file: 'tools/tinybird/events.ts', code: "'custom'", reason: "the tool error carries an issue's path and message only, not its zod code" },
];

const squash = (text) => text.replace(/\s+/g, ' ').trim();

/**
 * Whether a node's source is `code` (whitespace collapsed); a `code` ending in `{` names the
 * node that starts with it (a function or an `if` with its block). Only as much of the source
 * is read as could match, since this runs on every node of a listed file.
 */
function sourceIs(path, code) {
  const { start, end } = path.node;
  if (typeof start !== 'number' || typeof end !== 'number') return false;
  const whole = !code.endsWith('{');
  if (whole && end - start > code.length * 4) return false;
  const text = squash(path.hub.getCode().slice(start, whole ? end : start + code.length * 4));
  return whole ? text === code : text.startsWith(code);
}

/** The source of the nearest enclosing node of at most `limit` characters that contains `code`. */
const enclosedBy = (path, code) => path.findParent((parent) => {
  const { start, end } = parent.node;
  return typeof start === 'number' && end - start <= code.length * 4 && squash(parent.hub.getCode().slice(start, end)).includes(code);
}) !== null;

/** Which entry, if any, names this node: its text, and the enclosing code when the entry gives one. */
export function matchEntry(path, entries = EQUIVALENT_MUTANTS) {
  const filename = path.hub?.file?.opts?.filename;
  if (typeof filename !== 'string') return undefined;
  const name = filename.replaceAll('\\', '/');
  return entries.find((entry) => name.endsWith(`/${entry.file}`) && sourceIs(path, entry.code)
    && (entry.in === undefined || enclosedBy(path, entry.in)));
}

/** The ignore plugin: every mutant inside a listed node is reported as ignored, with its reason. */
export const equivalentMutantIgnorer = (entries = EQUIVALENT_MUTANTS) => ({
  shouldIgnore(path) {
    const entry = matchEntry(path, entries);
    return entry && `equivalent mutant: ${entry.reason}`;
  },
});

export const strykerPlugins = [declareValuePlugin(PluginKind.Ignore, 'equivalent-mutants', equivalentMutantIgnorer())];
