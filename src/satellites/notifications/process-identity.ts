import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a lock: enough to tell a live holder from a dead one whose pid was reused. */
export interface ProcessIdentity {
  pid: number;
  host: string;
  /** When the process started, as the OS counts it; absent where it cannot be read. */
  started?: string;
}

/**
 * The process's start time in clock ticks since boot (Linux: field 22 of /proc/<pid>/stat).
 * Together with the pid it names one process: a new process given the same pid starts later.
 */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    return undefined;
  }
}

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, host: hostname(), started: processStartTime(process.pid) };
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process may still be running. A process on another host cannot be checked,
 * so it counts as running; a pid now held by a process that started at another time does not.
 */
export function mayBeRunning(holder: Partial<ProcessIdentity>): boolean {
  if (holder.host !== undefined && holder.host !== hostname()) return true;
  const pid = holder.pid;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || !pidAlive(pid)) return false;
  const started = processStartTime(pid);
  return holder.started === undefined || started === undefined || holder.started === started;
}
