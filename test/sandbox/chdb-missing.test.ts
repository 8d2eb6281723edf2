import { expect, it, vi } from 'vitest';

it('tells the user to install chdb when it is missing, and nothing loads it before a sandbox starts', async () => {
  vi.doMock('chdb', () => {
    throw new Error("Cannot find package 'chdb'");
  });
  // Importing the sandbox module does not touch chdb; starting a sandbox does.
  const { startSandbox } = await import('../../src/satellites/sandbox/index.js');
  await expect(startSandbox()).rejects.toThrow(/Run `npm install chdb`/);
});
