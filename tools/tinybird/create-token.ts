import { z } from 'zod';
import { baseUrlParam, connection, tokenParam } from './connection.js';

/**
 * Static token scopes as the Tokens API spells them (plural families), with a resource where
 * the scope takes one: `DATASOURCES:READ:events`, `PIPES:READ:top_events`, `DATASOURCES:CREATE`.
 */
const STATIC_SCOPE = /^(?:DATASOURCES:(?:READ|APPEND|DROP):[A-Za-z_][A-Za-z0-9_]*|DATASOURCES:CREATE|PIPES:(?:READ|DROP):[A-Za-z_][A-Za-z0-9_]*|PIPES:CREATE|TOKENS|ADMIN)$/;

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A JWT scope as `POST /v0/tokens/` takes it (the official SDK's `JWTScope`). */
const jwtScope = z.object({
  type: z.enum(['PIPES:READ', 'DATASOURCES:READ', 'DATASOURCES:APPEND']).describe('What the token may do on the resource'),
  resource: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a pipe or Data Source name').describe('Pipe or Data Source name'),
  fixed_params: z.record(z.string(), scalar).optional().describe('Pipe parameters fixed to these values for every call with the token'),
  filter: z.string().min(1).optional().describe('SQL condition applied to a Data Source read'),
});

export default connection.defineTool({
  id: 'tinybird_create_token',
  resource: 'Token',
  name: 'Create token',
  description:
    'Create a scoped Tinybird token for a resource. kind static: a named token with scopes such as DATASOURCES:READ:events or PIPES:READ:top_events. kind jwt: a signed token for pipes or Data Sources, with fixed_params pinned per pipe and an expiry, for handing to a front end. The creating token needs TOKENS or ADMIN. The answer holds the new token itself.',
  scopes: ['TOKENS'],
  annotations: { readOnly: false, destructive: false, idempotent: false },
  params: z
    .object({
      base_url: baseUrlParam,
      token: tokenParam,
      name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a token name has letters, digits and underscores').describe('Token name'),
      kind: z.enum(['static', 'jwt']).default('static').describe('static (kept by the workspace) or jwt (signed, expires)'),
      scopes: z
        .array(z.string().regex(STATIC_SCOPE, 'a scope such as DATASOURCES:READ:<datasource>, DATASOURCES:APPEND:<datasource>, PIPES:READ:<pipe>, DATASOURCES:CREATE or TOKENS'))
        .min(1)
        .optional()
        .describe('kind static: scope strings'),
      jwt_scopes: z.array(jwtScope).min(1).optional().describe('kind jwt: scopes with their resource and fixed params'),
      expires_at: z.number().int().positive().optional().describe('kind jwt: expiry as Unix time in seconds'),
      rps: z.number().int().positive().optional().describe('kind jwt: requests per second allowed with the token'),
    })
    .superRefine((p, ctx) => {
      if (p.kind === 'static') {
        if (!p.scopes) ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'a static token needs scopes' });
        for (const name of ['jwt_scopes', 'expires_at', 'rps'] as const) if (p[name] !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: `${name} is for kind jwt` });
      } else {
        if (!p.jwt_scopes) ctx.addIssue({ code: 'custom', path: ['jwt_scopes'], message: 'a JWT needs jwt_scopes' });
        if (p.expires_at === undefined) ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'a JWT needs expires_at' });
        if (p.scopes) ctx.addIssue({ code: 'custom', path: ['scopes'], message: 'scopes is for kind static: use jwt_scopes' });
      }
    }),
  output: z.looseObject({ token: z.string().describe('The new token: keep it secret'), name: z.string().optional() }),
  request: (p) => ({
    method: 'POST',
    // As the official SDK sends it: the trailing slash, JSON, the expiry in the query.
    path: '/v0/tokens/',
    query: { expiration_time: p.kind === 'jwt' ? p.expires_at : undefined },
    body: {
      json:
        p.kind === 'static'
          ? { name: p.name, scope: p.scopes }
          : { name: p.name, scopes: p.jwt_scopes, ...(p.rps !== undefined ? { limits: { rps: p.rps } } : {}) },
    },
  }),
  wire: z.looseObject({ token: z.string().min(1), name: z.string().optional() }),
  response: ({ body }) => body,
});
