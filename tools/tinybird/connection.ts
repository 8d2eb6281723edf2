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

/** Every region's API host but the default's (Tinybird's "Current Tinybird regions"). */
const REGIONS = [
  'https://api.europe-west2.gcp.tinybird.co',
  'https://api.us-east.tinybird.co',
  'https://api.northamerica-northeast2.gcp.tinybird.co',
  'https://api.eu-central-1.aws.tinybird.co',
  'https://api.eu-west-1.aws.tinybird.co',
  'https://api.us-east.aws.tinybird.co',
  'https://api.us-west-2.aws.tinybird.co',
];

/**
 * Tinybird: the base URL names the workspace's region, so every tool takes it as a param
 * (the default is the first region's, for programs such as the CLI that may leave it out).
 */
export const connection = defineConnection({
  service: 'tinybird',
  baseUrl: { default: 'https://api.tinybird.co', param: 'base_url', schema: baseUrlParam, env: 'TINYBIRD_BASE_URL', publicUrls: REGIONS },
  credential: { param: 'token', schema: tokenParam, header: 'authorization', scheme: 'Bearer', query: 'token', env: 'TINYBIRD_TOKEN', check: '/v0/pipes', checkAnswer: { field: 'pipes' } },
});
