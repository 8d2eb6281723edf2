import { bytesHoldAnyNeedle, bytesHoldNoNeedle, jsonEscapedForms } from './redact-bytes.js';

const MASK = '[redacted]';
/** How many of a trusted body's own values are trusted with it (a body's fields, not its rows). */
const TRUSTED_FIELDS = 64;

/**
 * Replaces every occurrence of the given secrets in any JSON-like value. Also masks the
 * URL-encoded form of each secret, since a secret can come back inside a URL, and the
 * JSON-escaped forms of both, since a text answer (NDJSON, a log line) can hold JSON that
 * was never parsed.
 */
export class Redactor {
  private readonly needles: string[];
  /**
   * Objects decoded from a response whose bytes held no secret in any form (and the objects
   * a wire check made of them): the scan skips them. Tools build outputs from the body's
   * objects and never write params into them, so what the bytes did not hold they do not hold.
   */
  private trusted?: WeakSet<object>;

  constructor(secrets: readonly unknown[]) {
    this.needles = [];
    this.add(secrets);
  }

  /** Masks these secrets too, from now on. */
  add(secrets: readonly unknown[]): void {
    const needles = this.needles;
    for (const secret of secrets) {
      if (typeof secret !== 'string' || secret.length < 4) continue;
      const plain = [secret, encodeURIComponent(secret)];
      for (const form of [...plain, ...plain.flatMap(jsonEscapedForms)]) if (!needles.includes(form)) needles.push(form);
    }
    // Longest first, so a secret that contains another is masked whole.
    if (needles.length > 1) needles.sort((a, b) => b.length - a.length);
  }

  get active(): boolean {
    return this.needles.length > 0;
  }

  /** Whether bytes that cannot be masked (a binary answer) hold a secret in any form. */
  heldIn(bytes: Uint8Array): boolean {
    return this.active && bytesHoldAnyNeedle(bytes, this.needles);
  }

  text(value: string): string {
    let out = value;
    for (const needle of this.needles) if (out.includes(needle)) out = out.split(needle).join(MASK);
    return out;
  }

  /**
   * Trusts `body`, parsed from `bytes`, when the bytes hold no secret in any form the
   * redactor masks (plain, URL-encoded, and either one JSON-escaped): then the output's scan
   * skips the body instead of walking every row. Returns whether it did.
   */
  trustIfClean(bytes: Buffer, body: unknown): boolean {
    if (!this.active || !body || typeof body !== 'object' || !bytesHoldNoNeedle(bytes, this.needles)) return false;
    this.trust(body);
    return true;
  }

  isTrusted(value: unknown): boolean {
    // A WeakSet's `has` of a primitive is false, so no type check is needed first.
    return this.trusted?.has(value as object) === true;
  }

  /** Trusts a body already known clean (the wire check's copy of a trusted body): it and its fields. */
  trust(body: object): void {
    const trusted = (this.trusted ??= new WeakSet());
    trusted.add(body);
    if (Array.isArray(body)) return;
    let n = 0;
    for (const key in body) {
      const item = (body as Record<string, unknown>)[key];
      if (item && typeof item === 'object') trusted.add(item);
      if (++n >= TRUSTED_FIELDS) break;
    }
  }

  value<T>(value: T): T {
    // Most values hold no secret: a scan that allocates nothing tells, and only then is it copied.
    if (!this.active || !this.found(value)) return value;
    return this.walk(value) as T;
  }

  /** Loops, not `some` with a closure: this runs on every value of every result. */
  private found(value: unknown): boolean {
    if (typeof value === 'string') return this.inText(value);
    if (typeof value !== 'object' || value === null) return false;
    if (this.trusted?.has(value)) return false;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (this.found(value[i])) return true;
      return false;
    }
    // A plain object or a dictionary (`dictionaryOf()`: no prototype, e.g. flattened headers).
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      for (const key in value) {
        if (this.inText(key) || this.found((value as Record<string, unknown>)[key])) return true;
      }
    }
    return false;
  }

  private inText(text: string): boolean {
    for (const needle of this.needles) if (text.includes(needle)) return true;
    return false;
  }

  private walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value !== 'object' || value === null) return value;
    if (this.trusted?.has(value)) return value;
    if (Array.isArray(value)) return value.map((item) => this.walk(item));
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) {
      // A dictionary's copy has no prototype either, so a `__proto__` key stays a key.
      const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
      for (const [key, item] of Object.entries(value)) {
        const name = this.text(key);
        // An own `__proto__` key (JSON.parse makes one) assigned to `{}` would set the copy's
        // prototype to the service's data: it is defined as the own key it was.
        // Stryker disable next-line ConditionalExpression: defining every key gives the same copy; only `__proto__` needs it
        if (name === '__proto__') Object.defineProperty(out, name, { value: this.walk(item), writable: true, enumerable: true, configurable: true });
        else out[name] = this.walk(item);
      }
      return out;
    }
    return value;
  }
}

/** Strips `user:password@` from a URL before it is logged. */
export function stripUrlCredentials(url: string): string {
  return url.replace(/^(\w+:\/\/)[^/@]*@/, '$1');
}
