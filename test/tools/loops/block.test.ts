import { describe, expect, it } from 'vitest';
import { getBlock, toolJsonSchema } from '../../../src/index.js';

const block = getBlock('loops')!;
const field = (id: string) => block.manifest.fields.find((f) => f.id === id)!;

describe('loops block', () => {
  it('offers all eighteen operations from one dropdown', () => {
    expect(field('operation').options?.map((o) => o.id)).toEqual([
      'create_contact',
      'update_contact',
      'find_contact',
      'delete_contact',
      'send_transactional_email',
      'send_event',
      'list_mailing_lists',
      'list_transactional_emails',
      'get_transactional_email',
      'create_contact_property',
      'list_contact_properties',
      'check_contact_suppression',
      'remove_contact_suppression',
      'test_api_key',
      'list_event_patterns',
      'get_event_pattern',
      'list_dedicated_sending_ips',
      'api_call',
    ]);
    expect(block.manifest.tools.byOperation.send_event).toBe('loops_send_event');
  });

  it('shows the key as a password field nobody hands to a model', () => {
    expect(field('apiKey')).toMatchObject({ password: true, visibility: 'user-only' });
    expect(field('apiKey').requiredFor).toHaveLength(18);
    for (const tool of block.tools) expect(JSON.stringify(toolJsonSchema(tool.id, { audience: 'llm' }))).not.toContain('apiKey');
  });

  it('edits the object params in JSON editors', () => {
    for (const id of ['customProperties', 'mailingLists', 'dataVariables', 'eventProperties', 'attachments']) {
      expect(field(id), id).toMatchObject({ type: 'code', language: 'json' });
      expect(block.manifest.inputs[id], id).toMatchObject({ type: 'json' });
    }
    expect(field('mailingLists').condition?.value).toEqual(['create_contact', 'update_contact', 'send_event']);
  });

  it('marks email required where the operation needs it, and keeps the two subscribed defaults apart', () => {
    expect(field('email').requiredFor).toEqual(['create_contact', 'send_transactional_email']);
    expect(field('subscribed')).toMatchObject({ type: 'switch', default: true, condition: { value: ['create_contact'] } });
    expect(field('update_contact_subscribed')).toMatchObject({ param: 'subscribed', condition: { value: ['update_contact'] } });
    expect(field('update_contact_subscribed').default).toBeUndefined();
    expect(field('type')).toMatchObject({ type: 'dropdown', options: [{ id: 'string' }, { id: 'number' }, { id: 'boolean' }, { id: 'date' }] });
  });

  it('derives per-operation outputs in the spec\'s names', () => {
    expect(Object.keys(block.manifest.outputs.find_contact!)).toEqual(['contacts']);
    expect(Object.keys(block.manifest.outputs.list_transactional_emails!)).toEqual(['transactionalEmails', 'pagination', 'endpoint']);
    expect(Object.keys(block.manifest.outputs.list_mailing_lists!)).toEqual(['mailingLists']);
    expect(Object.keys(block.manifest.outputs.list_contact_properties!)).toEqual(['properties']);
    expect(block.manifest.outputs.delete_contact).toMatchObject({ success: { type: 'boolean' }, message: { type: 'string' } });
  });

  it('resolves editor values, JSON text included, to the tool and its params', () => {
    const { tool, params } = block.resolve({
      operation: 'send_transactional_email',
      apiKey: 'k',
      email: 'a@b.co',
      transactionalId: 't1',
      dataVariables: '{"name":"Alex"}',
      eventName: 'ignored for this operation',
      attachments: '',
    });
    expect(tool.id).toBe('loops_send_transactional_email');
    expect(params).toEqual({ apiKey: 'k', email: 'a@b.co', transactionalId: 't1', dataVariables: { name: 'Alex' } });
  });
});
