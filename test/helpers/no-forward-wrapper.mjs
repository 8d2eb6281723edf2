// Starts the command it is given and passes no signal on, as npx does with SIGTERM: killed,
// it leaves its child behind. Prints the child's pid first, then the child's own output.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(`child ${child.pid}\n`);
child.stdout.pipe(process.stdout);
