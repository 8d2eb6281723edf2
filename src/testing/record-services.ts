import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Dispatcher } from 'undici';
import { sharedDispatcher } from '../harness/send/dispatcher.js';
import { Redactor } from '../harness/mask/redact.js';
import { writeFlushed } from '../durable-write.js';
import { listServices } from '../registry.js';
import { AnswerDispatcher, type Outcome, type SentRequest } from './answer-dispatcher.js';
import { builtinCatalog } from './catalog.js';
import { parseFixtureFile, type FixtureAnswer, type FixtureFile } from './fixture-file.js';
import { matchRoute } from './routes.js';
import { credentialIn } from './sent-call.js';

/** An answer as the upstream sent it. */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers of the transport, not of the answer: a replay makes its own. */
const TRANSPORT_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date', 'set-cookie']);

export interface RecordServicesOptions {
  /** Where requests really go: the sandbox or a real account (the URLs the tools are given say which). Default: the package's shared Agent. */
  upstream?: Dispatcher;
  /** More values to remove from what is recorded, besides the credentials the requests carry (a token an answer creates, …). */
  secrets?: readonly string[];
}

/**
 * A dispatcher that sends every request on to `upstream` and keeps each answer under the tool
 * whose endpoint it reached, in order: `save(file)` writes them as a fixture file that
 * `mockServices({ fixtures: loadFixtureFile(file) })` replays. Every credential a request
 * carried, and every value in `secrets`, is masked in what is kept, before anything is written.
 */
export class ServiceRecorder extends AnswerDispatcher {
  private readonly upstream: Dispatcher;
  private readonly redactor: Redactor;
  /** Answers as they came, masked only when read: a credential seen later still masks an earlier answer. */
  private readonly answers = new Map<string, RawAnswer[]>();

  constructor(options: RecordServicesOptions = {}) {
    super((request, signal) => this.forward(request, signal));
    this.upstream = options.upstream ?? sharedDispatcher();
    this.redactor = new Redactor([...(options.secrets ?? [])]);
  }

  /** What was recorded so far, as a fixture file, masked with every secret the whole recording saw. */
  fixtures(): FixtureFile {
    const tools: FixtureFile['tools'] = {};
    for (const [id, sequence] of this.answers) tools[id] = { sequence: sequence.map((answer) => this.masked(answer)) };
    return { source: 'recorded with flowblocks/testing recordServices()', tools };
  }

  /** Writes the recording to `path` whole or not at all (a temp file renamed into place). */
  save(path: string): void {
    mkdirSync(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
    try {
      writeFlushed(temp, 'wx', `${JSON.stringify(this.fixtures(), null, 2)}\n`);
      renameSync(temp, path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
  }

  private async forward(request: SentRequest, signal: AbortSignal): Promise<Outcome> {
    // Every credential the request carries is masked from now on, in this answer and all later ones.
    const credentials = listServices().map(({ connection: c }) => credentialIn(request, c.credential.header, c.credential.scheme));
    this.redactor.add(credentials.filter((value): value is string => !!value));
    let response: Dispatcher.ResponseData;
    try {
      response = await this.upstream.request({ origin: request.origin, path: request.path, method: request.method as Dispatcher.HttpMethod, headers: request.headers, body: request.body, signal });
    } catch (error) {
      return { kind: 'error', error: error instanceof Error ? error : new Error(String(error)) };
    }
    const body = Buffer.from(await response.body.arrayBuffer());
    const headers = Object.create(null) as Record<string, string>;
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    const url = new URL(request.path, 'http://recorder.invalid');
    const match = matchRoute(await builtinCatalog().routes(), request.method, url.pathname, url.searchParams, request.headers['content-type']);
    if (match) this.keep(match.toolId, response.statusCode, headers, body);
    return { kind: 'reply', status: response.statusCode, headers, body };
  }

  private keep(toolId: string, status: number, headers: Record<string, string>, body: Buffer): void {
    const list = this.answers.get(toolId) ?? [];
    list.push({ status, headers, body });
    this.answers.set(toolId, list);
  }

  /** One answer as a fixture: secrets masked in header values and in the body as parsed (JSON's `\u` escapes decoded first). */
  private masked({ status, headers, body }: RawAnswer): FixtureAnswer {
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (!TRANSPORT_HEADERS.has(name)) kept[name] = this.redactor.text(value);
    const answer: FixtureAnswer = { status, headers: kept, source: 'recorded' };
    if (!body.length) return answer;
    const text = body.toString('utf8');
    let json: unknown;
    if (/^application\/(?:[\w.+-]*\+)?json\b/i.test(headers['content-type'] ?? '')) {
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = undefined;
      }
    }
    if (json !== undefined) answer.body = this.redactor.value(json);
    else answer.text = this.redactor.text(text);
    return answer;
  }
}

/** A recorder of the calls made through it: see `ServiceRecorder`. */
export function recordServices(options: RecordServicesOptions = {}): ServiceRecorder {
  return new ServiceRecorder(options);
}

/** Reads a fixture file (a recording, or one written by hand) and checks it. */
export function loadFixtureFile(path: string): FixtureFile {
  return parseFixtureFile(JSON.parse(readFileSync(path, 'utf8')) as unknown, path);
}
