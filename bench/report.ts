/** The benchmark table: printed, and written to docs/benchmarks.md with the machine it ran on. */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem, release, platform } from 'node:os';

export interface Row {
  suite: string;
  measure: string;
  flowblocks: string;
  baseline: string;
  ratio: number;
  /** How the ratio is read: `max` = at most the goal, `min` = at least the goal. */
  goal: { kind: 'max' | 'min'; value: number };
}

export function met(row: Row): boolean {
  return row.goal.kind === 'max' ? row.ratio <= row.goal.value : row.ratio >= row.goal.value;
}

function table(rows: Row[]): string {
  const header = '| suite | measure | flowblocks | baseline | ratio | goal | met |';
  const lines = rows.map(
    (r) =>
      `| ${r.suite} | ${r.measure} | ${r.flowblocks} | ${r.baseline} | ${r.ratio.toFixed(2)}× | ${r.goal.kind === 'max' ? '≤' : '≥'} ${r.goal.value}× | ${met(r) ? 'yes' : 'NO'} |`,
  );
  return [header, '|---|---|---|---|---|---|---|', ...lines].join('\n');
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}`;
}

export function writeReport(file: string, rows: Row[], notes: string[]): string {
  const text = table(rows);
  const markdown = `# Benchmarks

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine()}.

Every measure is the median of several runs after a warm-up, on loopback, with the peer
server in a child process. Ratios are what count; absolute figures are for context and
depend on the machine and on what else it was doing.

${text}

${notes.map((n) => `- ${n}`).join('\n')}
`;
  writeFileSync(file, markdown);
  return text;
}
