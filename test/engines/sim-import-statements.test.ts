import { describe, expect, it } from 'vitest';
import { importStatements } from '../../src/hosts/sim/import-statements.js';
import { applyEdit } from '../../scripts/sim-trial/apply-registry.js';

describe('the import statements of a Sim file', () => {
  it('reads one-line, multi-line and side-effect imports with the module each names', () => {
    const lines = ["'use client'", "import '@/styles/globals.css'", 'import {', '  A,', '  B,', "} from '@/blocks/blocks/a'", "import { C } from 'c'", '', 'export const x = 1'];
    expect(importStatements(lines)).toEqual([
      { start: 1, end: 1, from: '@/styles/globals.css' },
      { start: 2, end: 5, from: '@/blocks/blocks/a' },
      { start: 6, end: 6, from: 'c' },
    ]);
  });

  it('refuses an import whose module is not where the formatter puts it, naming its line', () => {
    expect(() => importStatements(['import { A } from "a"', 'const b = 1'])).toThrow(/line 1 has no "from '…'"/);
    // A statement left open is not glued to the next side-effect import.
    expect(() => importStatements(['import {', '  A,', "import 'b'"])).toThrow(/line 1/);
  });

  it('places a new import of the trial before a side-effect import that sorts after it', () => {
    const source = ["import 'z-side-effect'", "import { Y } from 'y'", '', 'export const registry = {', '}'].join('\n');
    const edited = applyEdit(source, { file: 'apps/sim/x.ts', newFile: false, lines: ["import { B } from 'b'"] });
    expect(edited.split('\n').slice(0, 3)).toEqual(["import { B } from 'b'", "import 'z-side-effect'", "import { Y } from 'y'"]);
  });
});
