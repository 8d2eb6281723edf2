import { main } from '../../src/satellites/cli/main.js';

/** Runs the CLI in-process and returns its exit code and everything it printed. */
export async function cli(args: string[], stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), stdin: async () => stdin });
  return { code, stdout, stderr };
}
