import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMonitorConfig } from '../../src/satellites/notifications/monitor-config.js';
import { SettingsError } from '../../src/satellites/notifications/settings.js';

const KEY = 'sk_Qz7+/=:@"é_Wv9k3Xp';

function errorOf(text: string): SettingsError {
  const file = join(mkdtempSync(join(tmpdir(), 'monitor-config-')), 'monitor.json');
  writeFileSync(file, text);
  try {
    loadMonitorConfig(file, {});
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('the config was accepted');
}

describe('monitor config file', () => {
  it('a syntax error names the file, line and column, never the text around it (the API key)', () => {
    // The mistake sits right after the key, where JSON.parse's own message quotes the text.
    const error = errorOf(`{\n  "baseUrl": "https://workflows.example.com",\n  "apiKey": "${KEY.replace('"', '\\"')}" oops,\n  "workspaceId": "ws_1"\n}`);
    const message = error.issues[0]!.message;
    expect(message).toMatch(/monitor\.json is not valid JSON: unexpected character at line 3, column \d+ \(position \d+\)$/);
    for (let i = 0; i + 6 <= KEY.length; i++) expect(message).not.toContain(KEY.slice(i, i + 6));
    expect(message).not.toContain('oops');
  });

  it('a missing file says so', () => {
    expect(() => loadMonitorConfig(join(tmpdir(), 'no-such-dir-x', 'monitor.json'), {})).toThrow(/no such file/);
  });
});
