import { setTimeout as delay } from 'node:timers/promises';
import { listServices } from '../../../registry.js';

/** Faults to inject into one service's responses; rates are probabilities from 0 to 1. */
export interface FaultConfig {
  /** Share of requests answered 429 (with `Retry-After: 1`). */
  rate429?: number;
  /** Share of requests answered 503. */
  rate5xx?: number;
  /** Share of requests whose connection is dropped without an answer. */
  dropRate?: number;
  /** Extra latency added to every request, in ms. */
  latencyMs?: number;
}

/** Faults per service id (`tinybird`, `loops`, `workflow`: the registered services). */
export type FaultsOption = Partial<Record<string, FaultConfig>>;

/** A fault decision: a status to answer with, a dropped connection, or nothing. */
export type Fault = { status: 429 | 503 } | 'drop' | undefined;

/** Small seeded PRNG (mulberry32), so a fault run can be replayed with the same seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultInjector {
  decide(service: string): Promise<Fault>;
  /** Replaces the fault configuration at run time (tests, the CLI). */
  set(faults: FaultsOption): void;
}

export function createFaultInjector(initial: FaultsOption = {}, seed = Date.now()): FaultInjector {
  let faults = initial;
  const random = prng(seed);
  return {
    set(next) {
      faults = next;
    },
    async decide(service) {
      const config = Object.hasOwn(faults, service) ? faults[service] : undefined;
      if (!config) return undefined;
      if (config.latencyMs) await delay(config.latencyMs);
      const roll = random();
      let edge = config.dropRate ?? 0;
      if (roll < edge) return 'drop';
      edge += config.rate429 ?? 0;
      if (roll < edge) return { status: 429 };
      edge += config.rate5xx ?? 0;
      if (roll < edge) return { status: 503 };
      return undefined;
    },
  };
}

const FAULT_RANGES: Record<string, { max: number; what: string }> = {
  '429': { max: 1, what: 'a probability from 0 to 1 (e.g. 0.1)' },
  '5xx': { max: 1, what: 'a probability from 0 to 1 (e.g. 0.05)' },
  drop: { max: 1, what: 'a probability from 0 to 1 (e.g. 0.01)' },
  latency: { max: Number.MAX_SAFE_INTEGER, what: 'a number of ms from 0 (e.g. 200)' },
};

/** Parses the CLI form `tinybird:429=0.1,5xx=0.05,latency=200,drop=0.01` (repeatable per service). */
export function parseFaultSpec(specs: readonly string[]): FaultsOption {
  const out: FaultsOption = {};
  for (const spec of specs) {
    const [service = '', rest] = spec.split(':', 2);
    const services = listServices().map((s) => s.id);
    if (!services.includes(service)) {
      throw new Error(`--fault names a service: ${services.join(', ')} (got ${service})`);
    }
    const config: FaultConfig = {};
    for (const pair of (rest ?? '').split(',').filter(Boolean)) {
      const [key = '', raw = ''] = pair.split('=', 2);
      const value = raw.trim() === '' ? Number.NaN : Number(raw);
      const range = FAULT_RANGES[key];
      if (!range) throw new Error(`--fault ${service}: unknown fault ${key} (429, 5xx, drop, latency)`);
      if (!Number.isFinite(value) || value < 0 || value > range.max) {
        throw new Error(`--fault ${service}: ${key} is ${range.what}, got ${JSON.stringify(raw)}`);
      }
      if (key === '429') config.rate429 = value;
      else if (key === '5xx') config.rate5xx = value;
      else if (key === 'drop') config.dropRate = value;
      else if (key === 'latency') config.latencyMs = value;
      else throw new Error(`--fault ${service}: unknown fault ${key} (429, 5xx, drop, latency)`);
    }
    out[service] = config;
  }
  return out;
}
