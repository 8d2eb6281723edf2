import { describe, expect, it } from 'vitest';
import { mockServices } from '../../src/testing/index.js';
import { SECRETS } from './helpers.js';

// Issue 41 item 9: calls() compares a JSON body's values once parsed, so a secret the sender
// spelled with `\u` escapes is masked (record-mask-order.test.ts covers recordings and forms).

const unicodeEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('mockServices() calls()', () => {
  it('masks a \\u-escaped secret in a JSON request body', async () => {
    const secret = 'extra-secret-value';
    const mock = mockServices({ secrets: [secret] });
    const sent = `{"eventName":"signup","email":"a@b.co","eventProperties":{"note":"${unicodeEscaped(secret)}"}}`;
    // As any JSON encoder may send it: the mock is a dispatcher, and a user's own call goes through it too.
    await mock
      .request({ origin: 'https://app.loops.so', path: '/api/v1/events/send', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${SECRETS.loops}` }, body: sent })
      .catch(() => undefined);
    const [call] = mock.calls('loops_send_event');
    expect(call!.body).toMatchObject({ eventName: 'signup', eventProperties: { note: '[redacted]' } });
    expect(call!.params).toMatchObject({ eventProperties: { note: '[redacted]' } });
    expect(JSON.stringify(mock.calls())).not.toContain(secret);
  });
});
