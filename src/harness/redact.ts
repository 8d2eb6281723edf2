const MASK = '[redacted]';

/**
 * Replaces every occurrence of the given secrets in any JSON-like value. Also masks the
 * URL-encoded form of each secret, since a secret can come back inside a URL.
 */
export class Redactor {
  private readonly needles: string[];

  constructor(secrets: readonly unknown[]) {
    const needles: string[] = [];
    for (const secret of secrets) {
      if (typeof secret !== 'string' || secret.length < 4) continue;
      for (const form of [secret, encodeURIComponent(secret)]) if (!needles.includes(form)) needles.push(form);
    }
    // Longest first, so a secret that contains another is masked whole.
    this.needles = needles.length > 1 ? needles.sort((a, b) => b.length - a.length) : needles;
  }

  get active(): boolean {
    return this.needles.length > 0;
  }

  text(value: string): string {
    let out = value;
    for (const needle of this.needles) if (out.includes(needle)) out = out.split(needle).join(MASK);
    return out;
  }

  value<T>(value: T): T {
    // Most values hold no secret: a scan that allocates nothing tells, and only then is it copied.
    if (!this.active || !this.found(value)) return value;
    return this.walk(value) as T;
  }

  private found(value: unknown): boolean {
    if (typeof value === 'string') return this.needles.some((needle) => value.includes(needle));
    if (Array.isArray(value)) return value.some((item) => this.found(item));
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      for (const key in value) {
        if (this.found(key) || this.found((value as Record<string, unknown>)[key])) return true;
      }
    }
    return false;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[this.text(key)] = this.walk(item);
      return out;
    }
    return value;
  }
}

/** Strips `user:password@` from a URL before it is logged. */
export function stripUrlCredentials(url: string): string {
  return url.replace(/^(\w+:\/\/)[^/@]*@/, '$1');
}
