import { serviceRunner } from '../../helpers/service-runner.js';

export { fast } from '../../helpers/service-runner.js';

export const BASE = 'https://workflows.example.com';
export const API_KEY = 'sk-wf-0c4f1d9e8b7a6f5e4d3c';
export const auth = { base_url: BASE, apiKey: API_KEY };

/** A mocked workflow platform and a runner bound to it. */
export const platform = () => serviceRunner('workflow', { credential: API_KEY, baseUrl: BASE });

export function jsonOf(body: unknown): unknown {
  return JSON.parse(String(body));
}
