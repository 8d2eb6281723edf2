/**
 * Alternating rounds: flowblocks, baseline, flowblocks, baseline … and the ratio of each
 * round, so a load spike from another process on a shared machine hits one round's pair,
 * not one side. Reported as the median and the range of the per-round ratios.
 */
import { median } from './measure.js';

export interface RoundRatios {
  /** Median of the flowblocks side's round values. */
  flowblocks: number;
  /** Median of the baseline side's round values. */
  baseline: number;
  /** Median of the per-round ratios (flowblocks / baseline of the same round). */
  ratio: number;
  /** Lowest and highest per-round ratio. */
  range: [number, number];
  rounds: number;
  /**
   * Median per-round ratio of this process's CPU time (user + system) over the same work:
   * what the client code costs, much less moved by other processes than the wall clock.
   */
  cpuRatio?: number;
}

/** Runs `fn` and returns its value and the CPU ms this process spent meanwhile. */
async function withCpu(fn: () => Promise<number> | number): Promise<[number, number]> {
  const start = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(start);
  return [value, (used.user + used.system) / 1000];
}

/**
 * Runs `rounds` pairs, each side returning one value (ms, or calls per second: the ratio is
 * flowblocks over baseline either way), and summarises them.
 */
export async function alternateRounds(rounds: number, flowblocks: () => Promise<number> | number, baseline: () => Promise<number> | number): Promise<RoundRatios> {
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Which side goes first alternates too, so neither always runs on a cooler machine.
    let x: [number, number];
    let y: [number, number];
    if (i % 2 === 0) {
      x = await withCpu(flowblocks);
      y = await withCpu(baseline);
    } else {
      y = await withCpu(baseline);
      x = await withCpu(flowblocks);
    }
    a.push(x[0]);
    b.push(y[0]);
    ratios.push(x[0] / y[0]);
    cpuRatios.push(x[1] / y[1]);
  }
  return { flowblocks: median(a), baseline: median(b), ratio: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)], rounds, cpuRatio: median(cpuRatios) };
}
