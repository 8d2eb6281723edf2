import type { z } from 'zod';
import { withIdempotencyKey } from './call-options.js';
import { safeParseCompiled } from './compiled.js';
import { ownValue } from '../dictionary.js';
import { failure, internalFailure, thrownMessage, ToolFailure } from '../errors.js';
import { endpointIssues } from './endpoints.js';
import { didYouMean } from '../did-you-mean.js';
import { MAX_KEYS_NAMED, namedFew, shownKey, shownPath } from '../shown-key.js';
import { paramNames } from '../define/fields.js';
import { Redactor } from '../mask/redact.js';
import { createCallState, sendRequest, type CallState } from '../send/send.js';
import type { AnyTool, ExecuteOptions, HttpResponse, ResultMeta, ToolContext, ToolIssue, ToolResult } from '../types.js';

/** zod issues as `{ path, message }`, the path dotted (`parameters.q`, `events.2`), each key cut to a readable length and a few named. */
export function zodIssues(error: z.ZodError): ToolIssue[] {
  return namedFew(error.issues.map((issue) => ({
    path: shownPath(issue.path),
    message: issue.message,
  })));
}

/** What a call's params are checked against besides the schema, per tool, made on its first call. */
interface ParamFacts {
  /** Names of the params the tool marks secret, so their values can be masked everywhere. */
  secrets: string[];
  /** Every param name: a key outside it is a typo, refused with a "did you mean". */
  known: Set<string>;
}

const paramFactsCache = new WeakMap<AnyTool, ParamFacts>();

function paramFacts(tool: AnyTool): ParamFacts {
  let facts = paramFactsCache.get(tool);
  if (!facts) {
    facts = { secrets: paramNames(tool.params, (meta) => meta.secret === true), known: new Set(paramNames(tool.params, () => true)) };
    paramFactsCache.set(tool, facts);
  }
  return facts;
}

/** Values of the params the tool marks secret, so they can be masked everywhere. */
function secretsOf(facts: ParamFacts, params: unknown): unknown[] {
  if (!params || typeof params !== 'object') return [];
  return facts.secrets.map((name) => ownValue(params, name));
}

/**
 * A key the tool has no param for: zod's object would drop it, and a typo (`waitt`,
 * `pipelin`) would pass unseen. Callers that carry other fields (the engine adapters, the
 * agents' strict view, a block's `resolve`) keep the tool's params only before they call.
 * The "did you mean" names only `suggestions`: the params the caller may set (a model is never
 * pointed at `token`).
 */
export function unknownParamIssues(known: ReadonlySet<string>, params: unknown, suggestions: Iterable<string> = known): ToolIssue[] {
  if (!params || typeof params !== 'object' || Array.isArray(params)) return [];
  let issues: ToolIssue[] | undefined;
  let unknown = 0;
  for (const key of Object.keys(params)) {
    if (known.has(key)) continue;
    // A caller's keys are theirs (a model's, a web page's): a few are named, each at a readable length.
    if (++unknown <= MAX_KEYS_NAMED) (issues ??= []).push({ path: shownKey(key), message: `unknown param${didYouMean(key, suggestions)}` });
  }
  if (unknown > MAX_KEYS_NAMED) issues!.push({ path: '', message: `and ${unknown - MAX_KEYS_NAMED} more unknown params` });
  return issues ?? [];
}

/**
 * zod's message for a missing value (`expected string, received undefined`) says what is wrong:
 * the param is required. Every check of a caller's params uses it (runTool, ingestEvents).
 */
export const requiredMessage: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input === undefined ? `required (expected ${issue.expected})` : undefined;

/**
 * The issues `runTool` refuses these params with (none when it would run them), for a caller
 * that checks first: the agents, whose "did you mean" names only the params a model may set.
 */
export function paramIssues(tool: AnyTool, params: unknown, suggestions?: Iterable<string>): ToolIssue[] {
  const unknownKeys = unknownParamIssues(paramFacts(tool).known, params, suggestions);
  const parsed = tool.params.safeParse(params, { error: requiredMessage });
  return parsed.success ? unknownKeys : [...unknownKeys, ...zodIssues(parsed.error)];
}

function paramsFailure(issues: ToolIssue[]): ToolFailure {
  return failure('invalid_params', `invalid params: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, { issues });
}

/**
 * The params as the tool's schema checks them, their secrets given to the redactor: those
 * of the params as given (a refused call's issues may quote them) and, when they differ,
 * those of the checked copy, which is what gets sent (a getter may answer differently on a
 * second read). Params that throw when read (a Proxy, a getter) are `invalid_params`: a
 * failure result, never a rejected call. A key that is no param of the tool is refused. A
 * throw while params that read as plain data are checked is the package's or its
 * environment's (a zod without an API we call): `internal`.
 */
function checkParams(tool: AnyTool, params: unknown, redactor: Redactor): unknown {
  const facts = paramFacts(tool);
  let given: unknown[];
  let parsed: z.ZodSafeParseResult<unknown>;
  let unknownKeys: ToolIssue[];
  try {
    given = secretsOf(facts, params);
    redactor.add(given);
    parsed = safeParseCompiled(tool.params, params);
    unknownKeys = unknownParamIssues(facts.known, params);
    // A refused call is parsed again (the failure path only) for messages that say a missing param is required.
    if (!parsed.success) parsed = tool.params.safeParse(params, { error: requiredMessage });
  } catch (error) {
    if (readsAsData(params)) throw internalFailure('checking the params', error);
    const message = `could not be read: ${thrownMessage(error)}`;
    throw failure('invalid_params', `invalid params: ${message}`, { issues: [{ path: '', message }] });
  }
  if (!parsed.success) throw paramsFailure([...unknownKeys, ...zodIssues(parsed.error)]);
  if (unknownKeys.length) throw paramsFailure(unknownKeys);
  const sent = secretsOf(facts, parsed.data);
  if (sent.some((value, i) => value !== given[i])) redactor.add(sent);
  return parsed.data;
}

/** The value copies as plain data: no Proxy trap, getter or other part of it throws when read. */
function readsAsData(value: unknown): boolean {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

/** `safeParseCompiled`, where a throw (not a failed check) is the package's or zod's fault: `internal`. */
function checkWith<S extends z.ZodType>(schema: S, value: unknown, during: string): z.ZodSafeParseResult<z.output<S>> {
  try {
    return safeParseCompiled(schema, value);
  } catch (error) {
    throw internalFailure(during, error);
  }
}

function metaOf(state: CallState, started: number, notes: string[]): ResultMeta {
  const meta: ResultMeta = { attempts: state.attempts, durationMs: Math.round(performance.now() - started) };
  if (state.status !== undefined) meta.status = state.status;
  if (state.rateLimit) meta.rateLimit = state.rateLimit;
  if (notes.length) meta.notes = notes;
  return meta;
}

/**
 * Issues of a wire check, by the service's field path. A union (a body that may be JSON or
 * text) reports the branch that took the value's type, so its inner fields are named too.
 */
function wireIssues(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): ToolIssue[] {
  const out: ToolIssue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'invalid_union') {
      const inside = issue.errors.filter((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0));
      if (inside.length === 1) {
        out.push(...wireIssues(inside[0]!, path));
        continue;
      }
    }
    out.push({ path: shownPath(path), message: issue.message });
  }
  return out;
}

/**
 * The response with its body checked by a `wire` schema (and replaced by the schema's
 * output). An answer of another shape is `invalid_response` whose issues name the service's
 * own fields (`rows`, `data.0.name`), before any mapping reads it. Tools that send requests
 * of their own (`ctx.send`) check those answers with it too.
 */
export function parseWire<W extends z.ZodType>(wire: W, response: HttpResponse): HttpResponse<z.output<W>> {
  const checked = checkWith(wire, response.body, "checking the service's answer");
  if (!checked.success) {
    const issues = namedFew(wireIssues(checked.error.issues));
    const where = issues.map((i) => `${i.path || '(body)'}: ${i.message}`).join('; ');
    throw failure('invalid_response', `the service answered with an unexpected shape: ${where}`, { status: response.status, issues });
  }
  // The response is this call's own object: the checked body replaces the raw one in place,
  // so the typed view is the same object (no copy per call).
  const typed = response as HttpResponse<z.output<W>>;
  typed.body = checked.data;
  return typed;
}

/** A tool's answer: its body checked by the tool's wire schema (if any), then mapped by `response`. */
function readAnswer(tool: AnyTool, response: HttpResponse, p: unknown, redactor: Redactor): unknown {
  if (!tool.wire) return tool.response(response, p);
  // The wire check's copy of a body whose bytes held no secret holds none either.
  const trusted = redactor.isTrusted(response.body);
  const checked = parseWire(tool.wire, response);
  if (trusted && checked.body && typeof checked.body === 'object') redactor.trust(checked.body);
  return tool.response(checked, p);
}

/**
 * Runs one tool: validate, build, send with retries and a time limit, read, map, validate
 * the output. Tool-level failures come back as results; secrets never come back at all.
 */
export async function runTool<T extends AnyTool>(
  tool: T,
  params: z.input<T['params']>,
  options: ExecuteOptions = {},
): Promise<ToolResult<z.output<T['output']>>> {
  type O = z.output<T['output']>;
  const started = performance.now();
  // Its secrets are added as the params are read, inside the try: reading them may throw.
  const redactor = new Redactor(Array.isArray(options.secrets) ? options.secrets : [], { refuseBinary: options.binaryAnswers === 'refused' });
  const callOptions = withIdempotencyKey(options);
  const toolIsSafe = tool.annotations.readOnly || tool.annotations.idempotent;
  const state = createCallState(tool.id, toolIsSafe, options, redactor);
  const notes: string[] = [];

  try {
    const badEndpoints = endpointIssues(options.endpoints);
    if (badEndpoints.length) {
      throw failure('invalid_params', `invalid options: ${badEndpoints.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues: badEndpoints });
    }
    const checked = checkParams(tool, params, redactor);
    const call = async (p: unknown) => readAnswer(tool, await sendRequest(tool.request(p, callOptions), state), p, redactor);
    // The context exists only for composed tools; a single call needs none of it, nor the
    // `call` closure's promise: its answer is read here (one await fewer per call).
    const raw = tool.run
      ? await tool.run(checked, {
          send: (request) => sendRequest(request, state),
          call,
          sleep: state.sleep,
          note: (text) => notes.push(text),
          reportRateLimit: (info) => {
            state.rateLimit ??= info;
          },
          options: callOptions,
          signal: options.signal,
        } satisfies ToolContext<unknown>)
      : readAnswer(tool, await sendRequest(tool.request(checked, callOptions), state), checked, redactor);
    // A tool with many rows checks them with a schema that does not copy them (`outputCheck`).
    const output = checkWith(tool.outputCheck ?? tool.output, raw, "checking the tool's output");
    if (!output.success) {
      throw failure('invalid_response', 'the service answered with an unexpected shape', {
        status: state.status,
        issues: zodIssues(output.error),
      });
    }
    return redactor.value({ success: true, output: output.data as O, meta: metaOf(state, started, notes) });
  } catch (error) {
    const toolError =
      error instanceof ToolFailure
        ? error.error
        : options.signal?.aborted
          ? { code: 'aborted' as const, message: 'the call was aborted', retryable: false }
          : {
              code: 'invalid_response' as const,
              message: `could not read the response: ${thrownMessage(error)}`,
              retryable: false,
            };
    return redactor.value({ success: false, error: toolError, meta: metaOf(state, started, notes) });
  }
}
