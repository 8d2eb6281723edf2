import { serviceRunner } from '../../helpers/service-runner.js';

export { fast } from '../../helpers/service-runner.js';

export const BASE = 'https://api.tinybird.co';
export const TOKEN = 'p.eyJ1IjogInRlc3QtdG9rZW4ifQ.signature';
export const auth = { base_url: BASE, token: TOKEN };

/** A mocked Tinybird and a runner bound to it. */
export const tinybird = () => serviceRunner('tinybird', { credential: TOKEN, baseUrl: BASE });

export function formOf(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(String(body)));
}

export const JOB_ID = 'c8ae13ef-e739-40b6-8bd5-b1e07c8671c2';
