import { z } from 'zod';
import { defineConnection, secretParam, userOnlyParam } from '../../src/kit.js';

export const baseUrlParam = userOnlyParam(
  z.url({ protocol: /^https?$/ }).describe('Base URL of the workflow platform, e.g. https://workflows.example.com or a self-hosted install'),
);

export const apiKeyParam = secretParam(
  z.string().min(1).describe('API key from the platform settings, sent as X-API-Key'),
);

/** A job id no platform gives out (the nil UUID: ids are UUIDs or prefixed ones). */
const NO_SUCH_JOB = '00000000-0000-0000-0000-000000000000';

/**
 * The workflow platform: hosted or self-hosted, so every tool takes its base URL; the spec
 * spells the key's header `X-API-Key` on execution and job calls and `x-api-key` on log calls,
 * one header either way. Every GET of its API needs an id or a workspace the key does not name,
 * so the credential check asks for a job that cannot exist: the key is checked first (401 when
 * missing or invalid), then the id (404), and it is not one of the rate-limited logs routes.
 */
export const connection = defineConnection({
  service: 'workflow',
  baseUrl: { param: 'base_url', schema: baseUrlParam, env: 'WORKFLOW_BASE_URL' },
  credential: {
    param: 'apiKey',
    schema: apiKeyParam,
    header: 'X-API-Key',
    env: 'WORKFLOW_API_KEY',
    check: `/api/jobs/${NO_SUCH_JOB}`,
    checkAccepts: [404],
  },
});
