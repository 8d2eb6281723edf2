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
}

/**
 * Runs `rounds` pairs, each side returning one value (ms, or calls per second: the ratio is
 * flowblocks over baseline either way), and summarises them.
 */
export async function alternateRounds(rounds: number, flowblocks: () => Promise<number> | number, baseline: () => Promise<number> | number): Promise<RoundRatios> {
  const a: number[] = [];
  const b: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Which side goes first alternates too, so neither always runs on a cooler machine.
    let x: number;
    let y: number;
    if (i % 2 === 0) {
      x = await flowblocks();
      y = await baseline();
    } else {
      y = await baseline();
      x = await flowblocks();
    }
    a.push(x);
    b.push(y);
    ratios.push(x / y);
  }
  return { flowblocks: median(a), baseline: median(b), ratio: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)], rounds };
}
