import { expect, it } from 'vitest';
import { startSandbox } from '../../src/satellites/sandbox/index.js';

it('seeds the demo events past the faults it was started with, then answers the caller with them', async () => {
  // Every Tinybird request refused: the seeding would fail if the faults reached it.
  const sb = await startSandbox({ servicePorts: false, seed: true, faults: { tinybird: { rate429: 1 } }, faultSeed: 7 });
  try {
    const headers = { authorization: `Bearer ${sb.credentials.tinybird.adminToken}` };
    const limited = await fetch(`${sb.urls.tinybird}/v0/sql?q=SELECT+count()+AS+n+FROM+events+FORMAT+JSON`, { headers });
    expect(limited.status).toBe(429);
    sb.setFaults({});
    const counted = await fetch(`${sb.urls.tinybird}/v0/sql?q=SELECT+count()+AS+n+FROM+events+FORMAT+JSON`, { headers });
    expect(counted.status).toBe(200);
    const { data } = (await counted.json()) as { data: { n: number | string }[] };
    expect(Number(data[0]?.n)).toBeGreaterThan(0);
  } finally {
    await sb.close();
  }
}, 60_000);
