/** The benchmark table: printed, and written to docs/benchmarks.md with the machine it ran on. */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, release, platform } from 'node:os';
import type { RoundRatios } from './rounds.js';

export interface Row {
  suite: string;
  measure: string;
  flowblocks: string;
  baseline: string;
  ratio: number;
  /** How the ratio is read: `max` = at most the goal, `min` = at least the goal. */
  goal: { kind: 'max' | 'min'; value: number };
  /** Lowest and highest per-round ratio, for rows measured in alternating rounds. */
  range?: [number, number];
  /** Median per-round ratio of the client's CPU time for the same work (see rounds.ts). */
  cpu?: number;
}

/** The ratio, median and range of alternating rounds, as a row takes them. */
export function fromRounds(r: RoundRatios): Pick<Row, 'ratio' | 'range' | 'cpu'> {
  return { ratio: r.ratio, range: r.range, cpu: r.cpuRatio };
}

/** The machine's load averages (1, 5, 15 min), as `uptime` prints them. */
export function load(): string {
  return loadavg().map((l) => l.toFixed(2)).join(', ');
}

export function met(row: Row): boolean {
  return row.goal.kind === 'max' ? row.ratio <= row.goal.value : row.ratio >= row.goal.value;
}

export function table(rows: Row[]): string {
  const header = '| suite | measure | flowblocks | baseline | ratio (range) | client CPU ratio | goal | met |';
  const lines = rows.map(
    (r) =>
      `| ${r.suite} | ${r.measure} | ${r.flowblocks} | ${r.baseline} | ${r.ratio.toFixed(2)}×${r.range ? ` (${r.range[0].toFixed(2)}–${r.range[1].toFixed(2)})` : ''} | ${r.cpu === undefined ? '' : `${r.cpu.toFixed(2)}×`} | ${r.goal.kind === 'max' ? '≤' : '≥'} ${r.goal.value}× | ${met(r) ? 'yes' : 'NO'} |`,
  );
  return [header, '|---|---|---|---|---|---|---|---|', ...lines].join('\n');
}

export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${release()}, Node ${process.version}`;
}

export interface ReportExtras {
  /** Load averages at the start and the end of the run. */
  load?: { start: string; end: string };
  /** Markdown appended after the notes (the fixes' before and after). */
  appendix?: string;
}

export function writeReport(file: string, rows: Row[], notes: string[], extras: ReportExtras = {}): string {
  const text = table(rows);
  const loadLine = extras.load ? `\nLoad average (1, 5, 15 min): ${extras.load.start} at the start, ${extras.load.end} at the end.` : '';
  const markdown = `# Benchmarks

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}.
Machine: ${machine()}.${loadLine}

Every measure is the median of several runs after a warm-up, on loopback, with the peer
server in a child process. Ratios are what count; absolute figures are for context and
depend on the machine and on what else it was doing. Rows with a range ran in alternating
rounds (flowblocks, baseline, baseline, flowblocks …): the ratio is the median of the
per-round ratios, the range their lowest and highest; the client CPU ratio is the median
per-round ratio of the bench process's own CPU time for the same calls (the server runs in
another process), which another process's load moves far less than the wall clock.

${text}

${notes.map((n) => `- ${n}`).join('\n')}
${extras.appendix ? `\n${extras.appendix.trim()}\n` : ''}`;
  writeFileSync(file, markdown);
  return text;
}
