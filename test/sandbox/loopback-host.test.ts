import { expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackOrigin } from '../../src/satellites/sandbox/http/loopback-host.js';

it('accepts only the loopback names with the server port as Host', () => {
  for (const host of ['127.0.0.1:4100', 'localhost:4100', 'LocalHost:4100', '[::1]:4100']) expect(isLoopbackHost(host, 4100), host).toBe(true);
  for (const host of [undefined, '', '127.0.0.1', '127.0.0.1:4101', 'attacker.example:4100', 'localhost.:4100', 'localhost.attacker.example:4100', '127.1:4100', '[::ffff:127.0.0.1]:4100']) {
    expect(isLoopbackHost(host, 4100), String(host)).toBe(false);
  }
  expect(isLoopbackHost('localhost', 80)).toBe(true);
});

it('accepts only http pages on the loopback names as Origin, on one port when asked', () => {
  expect(isLoopbackOrigin('http://127.0.0.1:5173')).toBe(true);
  expect(isLoopbackOrigin('http://[::1]:4100', 4100)).toBe(true);
  expect(isLoopbackOrigin('http://localhost:5173', 4100)).toBe(false);
  for (const origin of ['null', 'https://127.0.0.1:4100', 'http://127.0.0.1.attacker.example', 'http://attacker.example', 'http://127.0.0.1:4100/path', 'file://', '']) {
    expect(isLoopbackOrigin(origin), origin).toBe(false);
  }
});
