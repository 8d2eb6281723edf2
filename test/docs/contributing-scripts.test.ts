/**
 * CONTRIBUTING.md names every npm script a contributor runs (README links it), so the list
 * stays one a newcomer can hold: a script added without a line there fails here.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const root = new URL('../..', import.meta.url);
const { scripts } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };
const contributing = readFileSync(new URL('CONTRIBUTING.md', root), 'utf8');
/** npm's own lifecycle hooks, which nobody runs by name. */
const LIFECYCLE = new Set(['prepack']);

it('CONTRIBUTING.md names every npm script, and README links it', () => {
  const command = (name: string) => (name === 'test' || name === 'start' ? `npm ${name}` : `npm run ${name}`);
  const unnamed = Object.keys(scripts).filter((name) => !LIFECYCLE.has(name) && !contributing.includes(`\`${command(name)}`));
  expect(unnamed).toEqual([]);
  expect(readFileSync(new URL('README.md', root), 'utf8')).toContain('(CONTRIBUTING.md)');
});
