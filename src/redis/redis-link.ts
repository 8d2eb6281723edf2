import type { Redis } from 'ioredis';

export interface RedisLinkOptions {
  /** Receives one line when Redis stops answering and one when it answers again. Default: `console.warn`. */
  logger?: (line: string) => void;
  /** Longest wait for one Redis command (and for the first connection) before the fallback takes over. Default 500 ms. */
  commandTimeoutMs?: number;
  /** While Redis is down, how often a call tries it again. Default 1 000 ms. */
  retryMs?: number;
}

const now = () => performance.now();

/**
 * The pacer's side of one Redis connection: every command bounded in time, and one state,
 * up or down, that decides whether calls go through Redis. Going down and coming back are
 * each one log line, naming the server without its credentials.
 */
export class RedisLink {
  private upNow = true;
  private retryAt = 0;
  private closed = false;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly logger: (line: string) => void;
  readonly commandTimeoutMs: number;
  private readonly retryMs: number;

  constructor(
    readonly client: Redis,
    private readonly label: string,
    private readonly secrets: string[],
    private readonly owned: boolean,
    options: RedisLinkOptions = {},
  ) {
    this.logger = options.logger ?? ((line) => console.warn(line));
    this.commandTimeoutMs = options.commandTimeoutMs ?? 500;
    this.retryMs = options.retryMs ?? 1_000;
    // Back on a new connection: the next call tries Redis at once.
    client.on('ready', () => {
      this.retryAt = 0;
    });
    // ioredis prints unhandled 'error' events; the down line says it once instead.
    if (owned) client.on('error', () => {});
  }

  get up(): boolean {
    return this.upNow && !this.closed;
  }

  /** Whether a call should try Redis now: always while up; while down, once per `retryMs` and only on a ready connection. */
  usable(): boolean {
    if (this.closed) return false;
    if (this.upNow) return true;
    return this.client.status === 'ready' && now() >= this.retryAt;
  }

  /**
   * Connects a client the pacer opened, or waits for one of the caller's that is connecting,
   * within the first connection's limit; a Redis that is not there puts the pacer in fallback from the start.
   */
  async connect(): Promise<void> {
    const timeoutMs = Math.max(this.commandTimeoutMs, 1_000);
    const { client } = this;
    if (this.owned && client.status === 'wait') {
      await this.run(() => client.connect(), timeoutMs).catch(() => {});
      return;
    }
    if (client.status !== 'connecting' && client.status !== 'connect' && client.status !== 'reconnecting') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      client.once('ready', done);
    });
  }

  /** Runs one command within the time limit; marks the link up or down by its outcome. */
  async run<T>(command: () => Promise<T>, timeoutMs = this.commandTimeoutMs): Promise<T> {
    if (this.client.status !== 'ready' && this.client.status !== 'wait') {
      const error = new Error(`connection ${this.client.status}`);
      this.down(error);
      throw error;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const result = await Promise.race([command(), limit]);
      this.upAgain();
      return result;
    } catch (error) {
      this.down(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a command nobody waits for; `close()` waits for it. */
  track(command: () => Promise<unknown>): void {
    const running = this.run(command).catch(() => {});
    this.pending.add(running);
    void running.finally(() => this.pending.delete(running));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all(this.pending);
    this.closed = true;
    if (!this.owned) return;
    await this.run(() => this.client.quit()).catch(() => {});
    this.client.disconnect();
  }

  private down(error: unknown): void {
    this.retryAt = now() + this.retryMs;
    if (!this.upNow || this.closed) return;
    this.upNow = false;
    this.logger(`flowblocks: Redis at ${this.label} does not answer (${this.reason(error)}); pacing falls back to this process alone until it does`);
  }

  private upAgain(): void {
    if (this.upNow || this.closed) return;
    this.upNow = true;
    this.logger(`flowblocks: Redis at ${this.label} answers again; pacing is shared across processes again`);
  }

  /** The error's message, with any credential of the URL masked. */
  private reason(error: unknown): string {
    let text = error instanceof Error ? error.message : String(error);
    for (const secret of this.secrets) text = text.split(secret).join('***');
    return text;
  }
}
