import { Pacer } from '../harness/pace/pacer.js';
import { Redactor } from '../harness/mask/redact.js';
import { installDefaultDispatcher } from '../harness/send/dispatcher.js';
import { STAND_IN, type StandIn } from '../harness/send/stand-in.js';
import type { DispatcherLike } from '../harness/types.js';
import { listServices, type KnownToolId } from '../registry.js';
import { AnswerDispatcher, type Outcome, type SentRequest } from './answer-dispatcher.js';
import { builtinCatalog, knownTool, type CatalogEntry } from './catalog.js';
import { answerOutcome, faultOutcome, isFault, type MockFailure } from './faults.js';
import type { FixtureAnswer, FixtureFile } from './fixture-file.js';
import { matchRoute } from './routes.js';
import { credentialIn, readableRequest, type ReadableRequest } from './sent-call.js';

/** One answer of a sequence: a body (with its status and headers), or a failure or fault by name. */
export type MockStep =
  | { reply: unknown; status?: number; headers?: Record<string, string> }
  | { fail: MockFailure; retryAfterSeconds?: number };

export interface MockServicesOptions {
  /** Fixture files over the built-in ones (a recording from `recordServices`, or your own): their answers win per tool. */
  fixtures?: FixtureFile | readonly FixtureFile[];
  /** More values to mask in `calls()` besides the credentials the requests carry. */
  secrets?: readonly string[];
  /**
   * `'skip'` (default): the waits of calls through the mock pass at once (retry backoff,
   * `Retry-After`, polling) and nothing is paced, so a mocked 429 costs milliseconds; the
   * attempts and what they log are the same. `'real'`: they are waited for, and calls are paced
   * by a pacer of this mock's own. Either way no state is shared with another mock or with
   * real calls (pass `pacer` in a call's options to share one on purpose).
   */
  waits?: 'skip' | 'real';
}

/** One request a tool made, as the mock received it. */
export interface MockCall extends ReadableRequest {
  toolId: string;
  /**
   * The params as they went over the wire: path values under the tool's param names, then the
   * query, then the fields of a JSON or form body. Secrets masked.
   */
  params: Record<string, unknown>;
  /** The status answered, or the connection fault. */
  outcome: number | 'timeout' | 'connection_reset' | 'reset_after_write';
  /** Whether the service did the work (false for a fault before it read the request). */
  delivered: boolean;
}

/** A request no tool's endpoint matches (answered 404 Not Found, so it is sent once). */
export interface UnmatchedRequest extends ReadableRequest {
  origin: string;
}

interface Override {
  step: MockStep;
  times: number;
}

const MASK_FALLBACK = 'unmatched';

/**
 * An undici dispatcher that answers every tool's endpoint with the tool's fixtures: pass it as
 * `dispatcher` to `executeTool`, `runTool`, the agents' executor, the Sim and n8n adapters or
 * the monitor. Routes come from the tools' own request builders; answers from the fixtures
 * (the vendors' documents), from a recording, or from `reply`/`fail`/`sequence` per test.
 */
export class ServiceMock extends AnswerDispatcher {
  private readonly entries: Map<string, CatalogEntry>;
  private readonly queued = new Map<string, Override[]>();
  private readonly standing = new Map<string, MockStep>();
  private readonly recorded = new Map<string, FixtureAnswer[]>();
  private readonly made: MockCall[] = [];
  private readonly misses: UnmatchedRequest[] = [];
  private readonly extraSecrets: string[];
  /** Read by the harness for calls sent through this mock (src/harness/stand-in.ts). */
  readonly [STAND_IN]: StandIn;
  /** What `install()` replaced, while this mock is installed. */
  private installedOver: { dispatcher: DispatcherLike | undefined } | undefined;

  constructor(options: MockServicesOptions = {}) {
    super((request, signal) => this.answer(request, signal));
    this[STAND_IN] = options.waits === 'real' ? { pacer: new Pacer(), skipWaits: false } : { pacer: false, skipWaits: true };
    // A copy: the files this mock loads change its answers only.
    this.entries = new Map(builtinCatalog().entries);
    this.extraSecrets = [...(options.secrets ?? [])];
    const files = options.fixtures === undefined ? [] : Array.isArray(options.fixtures) ? options.fixtures : [options.fixtures as FixtureFile];
    for (const file of files) this.load(file);
  }

  /** From now on (or `times` times, ahead of the standing answer) the tool's endpoint answers `body`. */
  reply<K extends string>(toolId: KnownToolId<K>, body: unknown, init: { status?: number; headers?: Record<string, string>; times?: number } = {}): this {
    return this.add(toolId, { reply: body, status: init.status, headers: init.headers }, init.times);
  }

  /** From now on (or `times` times) the tool's endpoint fails: a documented failure answer, or a connection fault. */
  fail<K extends string>(toolId: KnownToolId<K>, failure: MockFailure, init: { times?: number; retryAfterSeconds?: number } = {}): this {
    return this.add(toolId, { fail: failure, retryAfterSeconds: init.retryAfterSeconds }, init.times);
  }

  /** Answers in this order, one per request (retries included), then the standing answer again. */
  sequence<K extends string>(toolId: KnownToolId<K>, steps: readonly MockStep[]): this {
    this.entry(toolId);
    for (const step of steps) this.add(toolId, step, 1);
    return this;
  }

  /** The requests made to the tool's endpoint (every tool's when no id is given), in order. */
  calls<K extends string>(toolId?: KnownToolId<K>): MockCall[] {
    return toolId === undefined ? [...this.made] : this.made.filter((call) => call.toolId === toolId);
  }

  /** Requests no tool's endpoint matched. */
  unmatched(): UnmatchedRequest[] {
    return [...this.misses];
  }

  /**
   * Answers every call of this package that passes no `dispatcher` (executeTool, runTool,
   * ingestEvents, the agents, the adapters, the monitor), until `uninstall()`: for code that
   * does not take options from its caller. Only flowblocks' calls: undici's global dispatcher,
   * `fetch` and other libraries are untouched. Returns the mock.
   */
  install(): this {
    if (this.installedOver === undefined) this.installedOver = { dispatcher: installDefaultDispatcher(this) };
    return this;
  }

  /** Puts back what `install()` replaced (the shared Agent, or a mock installed before this one). */
  uninstall(): void {
    if (this.installedOver === undefined) return;
    const current = installDefaultDispatcher(this.installedOver.dispatcher);
    if (current !== this) {
      installDefaultDispatcher(current);
      throw new Error('flowblocks/testing: uninstall the mock installed last first');
    }
    this.installedOver = undefined;
  }

  /** Forgets the overrides and the calls; the fixtures stay. */
  reset(): void {
    this.queued.clear();
    this.standing.clear();
    this.made.length = 0;
    this.misses.length = 0;
  }

  private entry(toolId: string): CatalogEntry {
    const entry = this.entries.get(toolId);
    if (!entry) throw new Error(`flowblocks/testing: no tool ${JSON.stringify(toolId)}; the mock answers ${[...this.entries.keys()].join(', ')}`);
    return entry;
  }

  private add(toolId: string, step: MockStep, times: number | undefined): this {
    this.entry(toolId);
    if ('fail' in step && !isFault(step.fail) && !this.failureAnswer(toolId, step.fail)) {
      throw new Error(`flowblocks/testing: ${toolId} has no ${step.fail} fixture`);
    }
    if (times === undefined) {
      this.queued.delete(toolId);
      this.standing.set(toolId, step);
      return this;
    }
    if (!Number.isInteger(times) || times < 1) throw new Error(`flowblocks/testing: times must be a whole number of at least 1, not ${times}`);
    const queue = this.queued.get(toolId) ?? [];
    queue.push({ step, times });
    this.queued.set(toolId, queue);
    return this;
  }

  private load(file: FixtureFile): void {
    for (const [id, fixtures] of Object.entries(file.tools)) {
      knownTool(id, file.service ?? 'given');
      if (fixtures.sequence) this.recorded.set(id, [...(this.recorded.get(id) ?? []), ...fixtures.sequence]);
      const base = this.entry(id);
      this.entries.set(id, {
        ...base,
        fixtures: { ...base.fixtures, success: fixtures.success ?? base.fixtures.success, failures: { ...base.fixtures.failures, ...fixtures.failures } },
      });
    }
  }

  private failureAnswer(toolId: string, name: string): FixtureAnswer | undefined {
    const { fixtures, serviceFailures } = this.entry(toolId);
    const key = name as keyof typeof serviceFailures;
    return fixtures.failures?.[key] ?? serviceFailures[key];
  }

  /** The next step for the tool: queued overrides first, then the standing one, then a recording, then the fixture. */
  private nextStep(toolId: string): MockStep | FixtureAnswer | undefined {
    const queue = this.queued.get(toolId);
    const head = queue?.[0];
    if (queue && head) {
      if (--head.times === 0) queue.shift();
      return head.step;
    }
    const standing = this.standing.get(toolId);
    if (standing) return standing;
    const recording = this.recorded.get(toolId);
    if (recording?.length) return recording.shift();
    return this.entry(toolId).fixtures.success;
  }

  private secretsOf(request: SentRequest, entry: CatalogEntry | undefined): string[] {
    const connections = entry ? [entry.service.connection] : listServices().map((service) => service.connection);
    const found = connections.map((c) => credentialIn(request, c.credential.header, c.credential.scheme)).filter((v): v is string => !!v);
    return [...found, ...this.extraSecrets];
  }

  private async answer(request: SentRequest, _signal: AbortSignal): Promise<Outcome> {
    const url = new URL(request.path, 'http://mock.invalid');
    const match = matchRoute(await builtinCatalog().routes(), request.method, url.pathname, url.searchParams, request.headers['content-type']);
    if (!match) {
      const readable = readableRequest(request, this.secretsOf(request, undefined));
      this.misses.push({ origin: request.origin, ...readable });
      const message = `flowblocks/testing: no tool's endpoint is ${request.method} ${readable.path} (${request.origin || MASK_FALLBACK}); the mock answers only the tools' own endpoints`;
      // A 404, as a service answers a path it does not have: the call fails once. A connection
      // error would be retried (a network fault), and the request sent and listed four times.
      return answerOutcome({ status: 404, body: { error: message } });
    }
    const entry = this.entry(match.toolId);
    const readable = readableRequest(request, this.secretsOf(request, entry));
    const body = readable.body;
    const params: Record<string, unknown> = Object.assign(Object.create(null) as object, readableParams(match.pathParams, this.secretsOf(request, entry)), readable.query);
    if (body && typeof body === 'object' && !Array.isArray(body)) Object.assign(params, body);
    const step = this.nextStep(match.toolId);
    const call: MockCall = { toolId: match.toolId, ...readable, params, outcome: 0, delivered: true };
    this.made.push(call);
    if (!step) {
      const message = `flowblocks/testing: ${match.toolId} (${request.method} ${readable.path}) has no fixture; give one with mock.reply('${match.toolId}', …)`;
      call.outcome = 'connection_reset';
      call.delivered = false;
      return { kind: 'error', error: Object.assign(new Error(message), { code: 'FLOWBLOCKS_MOCK_NO_FIXTURE' }) };
    }
    if ('fail' in step) {
      if (isFault(step.fail)) {
        const { outcome, delivered } = faultOutcome(step.fail);
        call.outcome = step.fail;
        call.delivered = delivered;
        return outcome;
      }
      const answer = this.failureAnswer(match.toolId, step.fail)!;
      const headers = { ...answer.headers };
      if (step.retryAfterSeconds !== undefined) headers['retry-after'] = String(step.retryAfterSeconds);
      call.outcome = answer.status;
      return answerOutcome({ ...answer, headers });
    }
    if ('reply' in step) {
      call.outcome = step.status ?? 200;
      return answerOutcome({ status: step.status ?? 200, headers: step.headers, body: step.reply });
    }
    call.outcome = step.status;
    return answerOutcome(step);
  }
}

function readableParams(pathParams: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const redactor = new Redactor(secrets);
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(pathParams)) out[name] = redactor.text(value);
  return out;
}

/** A mock of every service: see `ServiceMock`. */
export function mockServices(options: MockServicesOptions = {}): ServiceMock {
  return new ServiceMock(options);
}
