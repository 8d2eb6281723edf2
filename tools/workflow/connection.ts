import { z } from 'zod';
import { defineConnection, secretParam, userOnlyParam } from '../../src/kit.js';

export const baseUrlParam = userOnlyParam(
  z.url({ protocol: /^https?$/ }).describe('Base URL of the workflow platform, e.g. https://workflows.example.com or a self-hosted install'),
);

export const apiKeyParam = secretParam(
  z.string().min(1).describe('API key from the platform settings, sent as X-API-Key'),
);

/**
 * The workflow platform: hosted or self-hosted, so every tool takes its base URL; the spec
 * spells the key's header `X-API-Key` on execution and job calls and `x-api-key` on log calls,
 * one header either way. Every GET of its API needs a workspace, job or log id the key does not
 * name, so the credential check lists logs without a workspace: the key is checked first (401,
 * `{error}`), then the params (400, `{error, details}` naming `workspaceId`).
 */
export const connection = defineConnection({
  service: 'workflow',
  baseUrl: { param: 'base_url', schema: baseUrlParam, env: 'WORKFLOW_BASE_URL' },
  credential: {
    param: 'apiKey',
    schema: apiKeyParam,
    header: 'X-API-Key',
    env: 'WORKFLOW_API_KEY',
    check: '/api/v1/logs',
    checkAcceptedField: 'details',
  },
});
