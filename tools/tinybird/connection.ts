import { z } from 'zod';
import { defineConnection, secretParam, userOnlyParam } from '../../src/kit.js';

export const baseUrlParam = userOnlyParam(
  z
    .url({ protocol: /^https?$/ })
    .describe('API base URL of the workspace region, e.g. https://api.tinybird.co or https://api.us-east.aws.tinybird.co'),
);

export const tokenParam = secretParam(
  z.string().min(1).describe('Tinybird API token (workspace or personal), sent as a Bearer token'),
);

/**
 * Tinybird: the base URL names the workspace's region, so every tool takes it as a param
 * (the default is the first region's, for programs such as the CLI that may leave it out).
 */
export const connection = defineConnection({
  service: 'tinybird',
  baseUrl: { default: 'https://api.tinybird.co', param: 'base_url', schema: baseUrlParam, env: 'TINYBIRD_BASE_URL' },
  credential: { param: 'token', schema: tokenParam, header: 'authorization', scheme: 'Bearer', env: 'TINYBIRD_TOKEN', check: '/v0/pipes', checkAnswer: { field: 'pipes' } },
});
