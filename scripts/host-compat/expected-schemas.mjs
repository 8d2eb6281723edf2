// Every tool's JSON Schemas (both audiences) from the built package in this repository, with
// the zod it is developed with: what scripts/host-compat/suite.mjs compares a host's against.
const { listTools, toolJsonSchema } = await import(new URL('../../dist/src/index.js', import.meta.url).href);
const out = {};
for (const { id } of listTools()) out[id] = { full: toolJsonSchema(id, { audience: 'full' }), llm: toolJsonSchema(id, { audience: 'llm' }) };
process.stdout.write(JSON.stringify(out));
