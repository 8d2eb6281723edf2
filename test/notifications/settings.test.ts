import { describe, expect, it } from 'vitest';
import { parseSettings, SettingsError } from '../../src/satellites/notifications/settings.js';

const webhook = { type: 'webhook', url: 'https://hooks.example.com/in', secret: 'whsec-very-secret' };

function issuesOf(input: unknown): string[] {
  try {
    parseSettings(input);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).not.toContain('whsec-very-secret');
    return (error as SettingsError).issues.map((i) => i.path);
  }
  throw new Error('the settings were accepted');
}

describe('notification settings', () => {
  it('fills the spec defaults: both levels, every trigger, nothing extra in the payload, no rules', () => {
    const settings = parseSettings({ channels: [webhook], allWorkflows: true });
    expect(settings).toEqual({
      channels: [webhook],
      allWorkflows: true,
      levelFilter: ['info', 'error'],
      triggerFilter: ['api', 'webhook', 'schedule', 'manual', 'chat'],
      includeFinalOutput: false,
      includeTraceSpans: false,
      includeRateLimits: false,
      includeUsageData: false,
    });
  });

  it('accepts every channel kind and every rule', () => {
    const settings = parseSettings({
      channels: [
        webhook,
        { type: 'email', recipients: ['ops@example.com'], transactionalId: 'tx_1', apiKey: 'loops-key' },
        { type: 'chat', url: 'https://hooks.slack.com/services/T/B/X' },
      ],
      workflowIds: ['wf-1'],
      levelFilter: ['error'],
      triggerFilter: ['schedule'],
      alertRules: [
        { type: 'consecutive_failures', count: 3 },
        { type: 'failure_rate', percent: 50, windowHours: 24 },
        { type: 'latency_threshold', seconds: 30 },
        { type: 'latency_spike', percent: 100, windowHours: 24 },
        { type: 'cost_threshold', cost: 1 },
        { type: 'no_activity', hours: 24 },
        { type: 'error_count', count: 10, windowHours: 1 },
      ],
    });
    expect(settings.alertRules).toHaveLength(7);
  });

  it.each<[string, unknown, string]>([
    ['a bad webhook url', { channels: [{ ...webhook, url: 'ftp://x' }], allWorkflows: true }, 'channels.0.url'],
    ['an unknown channel', { channels: [{ type: 'pager' }], allWorkflows: true }, 'channels.0.type'],
    ['no channel', { channels: [], allWorkflows: true }, 'channels'],
    ['no workflow selection', { channels: [webhook] }, 'workflowIds'],
    ['both selections', { channels: [webhook], allWorkflows: true, workflowIds: ['a'] }, 'workflowIds'],
    ['an unknown level', { channels: [webhook], allWorkflows: true, levelFilter: ['warn'] }, 'levelFilter.0'],
    ['an unknown trigger', { channels: [webhook], allWorkflows: true, triggerFilter: ['cron'] }, 'triggerFilter.0'],
    ['a misspelt field', { channels: [webhook], allWorkflows: true, includeFinalOutputs: true }, ''],
    ['a bad recipient', { channels: [{ type: 'email', recipients: ['nope'], transactionalId: 't', apiKey: 'k' }], allWorkflows: true }, 'channels.0.recipients.0'],
    ['a rule out of bounds', { channels: [webhook], allWorkflows: true, alertRules: [{ type: 'consecutive_failures', count: 0 }] }, 'alertRules.0.count'],
    ['a rule without its window', { channels: [webhook], allWorkflows: true, alertRules: [{ type: 'error_count', count: 3 }] }, 'alertRules.0.windowHours'],
  ])('refuses %s, naming the field', (_name, input, path) => {
    expect(issuesOf(input)).toContain(path);
  });
});
