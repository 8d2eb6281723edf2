import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand } from './command.js';

const USAGE = `Usage: flowblocks sim-blocks <sim-checkout> [--check]

Writes the blocks as Sim integrations, in Sim's own layout: a block file per block in
apps/sim/blocks/blocks/ (category tools: in the Agent block's tool picker, and read by Sim's
docs and catalog generators), their icons at the end of apps/sim/components/icons.tsx, and
their lines in apps/sim/blocks/registry-maps.ts. Run it again after every upgrade of flowblocks;
then run Sim's generators (bun run scripts/generate-docs.ts). docs/engines.md has every step.

Options:
  --check                 write nothing; exit 1 when a file is not what this version writes
  --id-prefix <p>         before every tool id (default flowblocks_; the tools' idPrefix must match)
  --block-type-prefix <p> before every block type (default flowblocks_)

Exit codes: 0 written (or up to date), 1 a file is out of date (--check), 2 usage error.
`;

export const command: CliCommand = {
  summary: "write the blocks into a Sim checkout as Sim-native integrations (block files, icons, registry lines)",
  async run(argv, io) {
    let sim: string;
    let values;
    try {
      const parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          check: { type: 'boolean' },
          'id-prefix': { type: 'string' },
          'block-type-prefix': { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      values = parsed.values;
      if (values.help) {
        io.stdout(USAGE);
        return 0;
      }
      if (parsed.positionals.length !== 1) throw new Error('give one Sim checkout');
      sim = parsed.positionals[0]!;
      if (!existsSync(join(sim, 'apps', 'sim', 'blocks', 'blocks'))) throw new Error(`${sim} has no apps/sim/blocks/blocks: not a Sim checkout`);
    } catch (error) {
      io.stderr(`${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    const { simNativeFiles } = await import('../../hosts/sim/native-files.js');
    const { blockManifests } = await import('../../blocks/manifests.generated.js');
    const { packageVersion } = await import('../../version.js');
    const options = {
      ...(values['id-prefix'] !== undefined ? { idPrefix: values['id-prefix'] } : {}),
      ...(values['block-type-prefix'] !== undefined ? { blockTypePrefix: values['block-type-prefix'] } : {}),
    };
    const read = (path: string) => readFileSync(join(sim, path), 'utf8');
    const files = simNativeFiles(blockManifests, read, packageVersion(), options);
    const stale = files.filter((file) => !existsSync(join(sim, file.path)) || read(file.path) !== file.text);
    if (values.check) {
      for (const file of stale) io.stderr(`✗ ${file.path}: not what flowblocks ${packageVersion()} writes (run flowblocks sim-blocks)\n`);
      if (stale.length > 0) return 1;
      io.stdout(`✓ flowblocks blocks: ${files.length} files up to date\n`);
      return 0;
    }
    for (const file of stale) {
      writeFileSync(join(sim, file.path), file.text);
      io.stdout(`wrote ${file.path}\n`);
    }
    io.stdout(`${stale.length} of ${files.length} files written; now run Sim's generators (bun run scripts/generate-docs.ts)\n`);
    return 0;
  },
};
