/**
 * Every form a secret can be read back in, for the mask tests of every place a secret is
 * masked (the harness, the agents and MCP, the n8n node, the Sim adapter, the testing kit).
 * A check for an encoded form proves nothing with a secret that the encoding leaves as it is:
 * `TELLING_SECRETS` change under each encoding here (`telling()` checks it), so an echo of
 * one form cannot be masked by the raw form's rule alone.
 */
import { expect } from 'vitest';

export type SecretFormName = 'raw' | 'percent-encoded' | 'form-encoded' | 'JSON-escaped' | 'JSON-escaped with \\/' | 'base64' | 'base64url';

export interface SecretForm {
  name: SecretFormName;
  text: string;
}

/**
 * Secrets with `+ / = : @ "`, a space, `~` and non-ASCII characters, whose base64 holds a `+` or a
 * `/` (so `base64` and `base64url` differ, and neither is the raw text).
 */
export const TELLING_SECRETS = ['sk+live/Ab==:@"tøken€ 1?', 'whsec/9+Zq="ü> x', 'p.eyJ1Ijoi"x"@host:443/€ ~'] as const;

/**
 * Telling secrets of printable ASCII, for a credential that travels in a request header (a
 * header value holds no character above U+00FF): `+ / = " @ : ~`, a space, `?`.
 */
export const HEADER_SAFE_SECRETS = ['wf+key/Ab=="x@:~ ?>?', 'wf~key/Ab=="x@:+ 1?~'] as const;

/**
 * A secret's forms, each named: what a service can echo without computing anything but an
 * encoding. The base64 forms without their padding, which depends on what follows the secret.
 */
export function secretForms(secret: string): SecretForm[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  const bytes = Buffer.from(secret, 'utf8');
  return [
    { name: 'raw', text: secret },
    { name: 'percent-encoded', text: encodeURIComponent(secret) },
    // A query string or a form body: a space as `+`, `~` escaped (URLSearchParams).
    { name: 'form-encoded', text: new URLSearchParams([['', secret]]).toString().slice(1) },
    { name: 'JSON-escaped', text: escaped },
    { name: 'JSON-escaped with \\/', text: escaped.split('/').join('\\/') },
    { name: 'base64', text: bytes.toString('base64').replace(/=+$/, '') },
    { name: 'base64url', text: bytes.toString('base64url') },
  ];
}

/** Whether every form of `secret` differs from every other, so each form tests its own rule. */
export function telling(secret: string): boolean {
  const texts = secretForms(secret).map((form) => form.text);
  return new Set(texts).size === texts.length;
}

/** Every string in a JSON-like value, object keys included, and its JSON text. */
function texts(value: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') out.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node instanceof Error) {
      out.push(node.message, node.stack ?? '');
      walk((node as { cause?: unknown }).cause);
      walkEntries(node);
    } else if (node && typeof node === 'object') walkEntries(node);
  };
  const walkEntries = (node: object): void => {
    for (const [key, item] of Object.entries(node)) {
      out.push(key);
      walk(item);
    }
  };
  walk(value);
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    // A value JSON cannot hold: its strings were read above.
  }
  return out;
}

/** The forms of `secrets` found anywhere in `value` (strings, keys, an error's message, stack and cause), as "<form> of <secret>". */
export function secretFormsIn(value: unknown, secrets: readonly string[]): string[] {
  const haystack = texts(value);
  const found: string[] = [];
  for (const secret of secrets) {
    for (const form of secretForms(secret)) if (haystack.some((text) => text.includes(form.text))) found.push(`${form.name} of ${secret}`);
  }
  return found;
}

/** Fails naming each form of each secret that `value` holds. */
export function expectNoSecretForm(value: unknown, secrets: readonly string[]): void {
  expect(secretFormsIn(value, secrets)).toEqual([]);
}

/**
 * A text holding `secret` in every form, each in its own place, as a hostile or careless
 * service echoes it: `raw=… pct=… json=… …`.
 */
export function echoEveryForm(secret: string): string {
  return secretForms(secret)
    .map((form) => `${form.name}=${form.text}`)
    .join(' | ');
}
