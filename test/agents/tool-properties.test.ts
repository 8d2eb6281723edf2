import { describe, expect, it } from 'vitest';
import { agentDefinition } from '../../src/hosts/agents/index.js';
import { paramNames } from '../../src/harness/define/fields.js';
import { getTool, listTools, toolJsonSchema } from '../../src/index.js';

/**
 * What the snapshots of the agent definitions and the registry schemas hold, as assertions a
 * `vitest -u` cannot accept by mistake: each tool's effect (the hints a model and an MCP
 * client read before calling), its credential, what only the user sets, and what a model
 * must fill. A change here is a change to what tools do: update the table on purpose.
 */
type Effect = 'read' | 'write' | 'write, idempotent' | 'destructive' | 'destructive, idempotent';
const TOOLS: Record<string, { effect: Effect; credential: string; userOnly: string[]; required: string[]; scopes: string[] }> = {
  tinybird_events: { effect: 'write', credential: 'token', userOnly: ['base_url', 'max_request_bytes', 'concurrency', 'on_ambiguous'], required: ['datasource', 'data'], scopes: ['DATASOURCES:APPEND:<datasource>', 'DATASOURCES:CREATE'] },
  tinybird_query: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: ['query'], scopes: ['PIPES:READ:<pipe>', 'DATASOURCES:READ:<datasource>'] },
  tinybird_query_pipe: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: ['pipe'], scopes: ['PIPES:READ:<pipe>'] },
  tinybird_append_datasource: { effect: 'write', credential: 'token', userOnly: ['base_url'], required: ['datasource', 'url'], scopes: ['DATASOURCES:CREATE'] },
  tinybird_append_data: { effect: 'write', credential: 'token', userOnly: ['base_url'], required: ['datasource', 'data'], scopes: ['DATASOURCES:APPEND:<datasource>', 'DATASOURCES:CREATE'] },
  tinybird_truncate_datasource: { effect: 'destructive, idempotent', credential: 'token', userOnly: ['base_url'], required: ['datasource'], scopes: ['DATASOURCES:CREATE'] },
  tinybird_delete_datasource_rows: { effect: 'destructive', credential: 'token', userOnly: ['base_url'], required: ['datasource', 'delete_condition'], scopes: ['DATASOURCES:CREATE'] },
  tinybird_get_job: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: ['job_id'], scopes: ['DATASOURCES:CREATE'] },
  tinybird_list_datasources: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: [], scopes: ['DATASOURCES:READ'] },
  tinybird_get_datasource: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: ['datasource'], scopes: ['DATASOURCES:READ:<datasource>'] },
  tinybird_list_pipes: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: [], scopes: ['PIPES:READ'] },
  tinybird_get_pipe: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: ['pipe'], scopes: ['PIPES:READ:<pipe>'] },
  tinybird_list_jobs: { effect: 'read', credential: 'token', userOnly: ['base_url'], required: [], scopes: ['DATASOURCES:CREATE'] },
  tinybird_cancel_job: { effect: 'destructive', credential: 'token', userOnly: ['base_url'], required: ['job_id'], scopes: ['DATASOURCES:CREATE'] },
  tinybird_create_token: { effect: 'write', credential: 'token', userOnly: ['base_url'], required: ['name'], scopes: ['TOKENS'] },
  tinybird_api_call: { effect: 'destructive', credential: 'token', userOnly: ['base_url'], required: ['path'], scopes: [] },
  loops_create_contact: { effect: 'write', credential: 'apiKey', userOnly: [], required: ['email'], scopes: [] },
  loops_update_contact: { effect: 'destructive, idempotent', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_find_contact: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_delete_contact: { effect: 'destructive, idempotent', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_send_transactional_email: { effect: 'write', credential: 'apiKey', userOnly: [], required: ['email', 'transactionalId'], scopes: [] },
  loops_send_event: { effect: 'write', credential: 'apiKey', userOnly: [], required: ['eventName'], scopes: [] },
  loops_list_mailing_lists: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_list_transactional_emails: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_get_transactional_email: { effect: 'read', credential: 'apiKey', userOnly: [], required: ['transactionalId'], scopes: [] },
  loops_create_contact_property: { effect: 'write', credential: 'apiKey', userOnly: [], required: ['name', 'type'], scopes: [] },
  loops_list_contact_properties: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_check_contact_suppression: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_remove_contact_suppression: { effect: 'write', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_test_api_key: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_list_event_patterns: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_get_event_pattern: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_list_dedicated_sending_ips: { effect: 'read', credential: 'apiKey', userOnly: [], required: [], scopes: [] },
  loops_api_call: { effect: 'destructive', credential: 'apiKey', userOnly: [], required: ['path'], scopes: [] },
  workflow_execute: { effect: 'write', credential: 'apiKey', userOnly: ['base_url', 'inputStyle'], required: ['workflowId'], scopes: [] },
  workflow_get_job: { effect: 'read', credential: 'apiKey', userOnly: ['base_url'], required: ['taskId'], scopes: [] },
  workflow_list_logs: { effect: 'read', credential: 'apiKey', userOnly: ['base_url'], required: ['workspaceId'], scopes: [] },
  workflow_get_log: { effect: 'read', credential: 'apiKey', userOnly: ['base_url'], required: ['id'], scopes: [] },
  workflow_get_execution: { effect: 'read', credential: 'apiKey', userOnly: ['base_url'], required: ['executionId'], scopes: [] },
  workflow_api_call: { effect: 'destructive', credential: 'apiKey', userOnly: ['base_url'], required: ['path'], scopes: [] },
};

const EFFECT_TEXT: Record<Effect, string> = {
  read: 'Read-only.',
  write: 'Writes data. Not idempotent: a repeat acts again.',
  'write, idempotent': 'Writes data. Safe to repeat with the same arguments.',
  destructive: 'Destructive: changes or removes existing data. Not idempotent: a repeat acts again.',
  'destructive, idempotent': 'Destructive: changes or removes existing data. Safe to repeat with the same arguments.',
};

type Schema = { properties: Record<string, unknown>; required?: string[]; additionalProperties?: unknown };

describe('every tool, property by property (what the snapshots hold)', () => {
  it('the table names every tool of the registry', () => {
    expect(listTools().map((tool) => tool.id).sort()).toEqual(Object.keys(TOOLS).sort());
  });

  it.each(Object.entries(TOOLS))('%s: effect hints, credential, user-only params, required fields, scopes', (id, expected) => {
    const tool = getTool(id)!;
    const { readOnly, destructive, idempotent } = tool.annotations;
    const effect: Effect = readOnly ? 'read' : destructive ? (idempotent ? 'destructive, idempotent' : 'destructive') : idempotent ? 'write, idempotent' : 'write';
    expect(effect).toBe(expected.effect);
    if (readOnly) expect(destructive).toBe(false);
    expect(tool.scopes).toEqual(expected.scopes);

    // The credential is secret (masked everywhere) and user-only (never in a model's schema).
    expect(paramNames(tool.params, (meta) => meta.secret === true)).toEqual([expected.credential]);
    const userOnly = paramNames(tool.params, (meta) => meta.visibility === 'user-only');
    expect(userOnly.sort()).toEqual([expected.credential, ...expected.userOnly].sort());

    const full = toolJsonSchema(id, { audience: 'full' }) as Schema;
    const llm = toolJsonSchema(id, { audience: 'llm' }) as Schema;
    for (const name of userOnly) {
      expect(Object.keys(full.properties)).toContain(name);
      expect(Object.keys(llm.properties)).not.toContain(name);
    }
    expect(llm.required ?? []).toEqual(expected.required);
    expect(full.required ?? []).toEqual(expect.arrayContaining([...expected.required, expected.credential]));

    // What a model reads: the same hidden params, the required fields, the effect in words.
    for (const definition of [agentDefinition(tool), agentDefinition(tool, { strict: true })]) {
      const parameters = definition.parameters as Schema;
      expect(definition.name).toBe(id);
      for (const name of userOnly) expect(Object.keys(parameters.properties)).not.toContain(name);
      expect(JSON.stringify(parameters)).not.toContain(`"${expected.credential}"`);
      expect(definition.description.startsWith(tool.description)).toBe(true);
      expect(definition.description).toContain(EFFECT_TEXT[expected.effect]);
      expect(definition.description).toContain(
        expected.scopes.length ? `Token scopes: ${expected.scopes.join(', ')} (the credential is configured by the user).` : 'Needs the service API key, configured by the user (no scopes).',
      );
    }
    const plain = agentDefinition(tool).parameters as Schema;
    expect(plain.required ?? []).toEqual(expected.required);
    expect(Object.keys(plain.properties).sort()).toEqual(Object.keys(llm.properties).sort());
    const strict = agentDefinition(tool, { strict: true }).parameters as Schema;
    expect(strict.additionalProperties).toBe(false);
    expect([...(strict.required ?? [])].sort()).toEqual(Object.keys(llm.properties).sort());
    expect(agentDefinition(tool).strict).toBe(false);
    expect(agentDefinition(tool, { strict: true }).strict).toBe(true);
  });
});
