/**
 * The two raw baselines: `undici.request` (what a hand-written client uses) and undici's
 * `dispatch` with a minimal handler (what the harness itself sends through, so the fastest
 * raw client there is). Both read the whole body and parse it as JSON, as the tools do.
 *
 * Checked for fairness in #21: a caller of either must decode the UTF-8 and parse the JSON
 * (the spec's answer is a JSON document), and both baselines do; they use an Agent with the
 * harness's own settings. What they leave out (param validation, the wire and output checks,
 * the secret scan, the time limit, retries) is the harness's own work: the rows measure it.
 */
import { Agent, request, type Dispatcher } from 'undici';

export interface RawCall {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The same settings as the harness's shared Agent, so only the client code differs. */
export function benchAgent(): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 128 });
}

export async function viaRequest(agent: Agent, base: string, call: RawCall): Promise<unknown> {
  const res = await request(base + call.path, { method: call.method, headers: call.headers, body: call.body, dispatcher: agent });
  if (res.statusCode !== 200) throw new Error(`raw call answered ${res.statusCode}`);
  return res.body.json();
}

/** A dispatch handler that keeps the chunks and parses them at the end: nothing more. */
class Collect implements Dispatcher.DispatchHandler {
  private chunks: Buffer[] = [];
  private status = 0;
  constructor(
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (error: Error) => void,
  ) {}
  // undici tells the handler API apart by this method's presence.
  onRequestStart(): void {}
  onResponseStart(_c: Dispatcher.DispatchController, status: number): void {
    this.status = status;
  }
  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }
  onResponseEnd(): void {
    if (this.status !== 200) return this.reject(new Error(`raw dispatch answered ${this.status}`));
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    try {
      this.resolve(JSON.parse(bytes.toString('utf8')));
    } catch (error) {
      this.reject(error as Error);
    }
  }
  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    this.reject(error);
  }
}

export function viaDispatch(agent: Agent, origin: string, call: RawCall): Promise<unknown> {
  return new Promise((resolve, reject) => {
    agent.dispatch({ origin, path: call.path, method: call.method, headers: call.headers, body: call.body }, new Collect(resolve, reject));
  });
}
