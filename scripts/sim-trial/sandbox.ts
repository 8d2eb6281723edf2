/**
 * The sandbox the Sim trial runs against (scripts/sim-trial.sh): the prefixed URLs on one port,
 * with the workflow platform reading execute bodies `flat`, as a Sim deployment does and as the
 * Sim adapter sends them by default. Serves until killed.
 *
 *   tsx scripts/sim-trial/sandbox.ts <port>
 */
import { startSandbox } from '../../src/satellites/sandbox/index.js';

const port = Number(process.argv[2] ?? 4177);
const sandbox = await startSandbox({ port, servicePorts: false, seed: true, workflow: { inputStyle: 'flat' } });
console.log(`sim-trial sandbox: ${JSON.stringify(sandbox.urls)} (workflow inputStyle flat)`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
