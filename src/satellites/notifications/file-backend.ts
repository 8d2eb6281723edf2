import { lockDataDir } from './lock.js';
import type { MonitorBackend } from './monitor-backend.js';
import { MonitorError } from './monitor.js';
import type { NotificationState } from './state.js';
import { jsonFileStore, stateFilePath } from './store.js';

/** The default: state, journal and lock file in one data directory; the notifier sends its own deliveries. */
export function fileBackend(dataDir: string): MonitorBackend {
  return {
    description: dataDir,
    acquire() {
      // Refused at once when another monitor holds the directory: there is no lease to wait for.
      let unlock: () => void;
      try {
        unlock = lockDataDir(dataDir);
      } catch (error) {
        throw new MonitorError((error as Error).message);
      }
      return Promise.resolve({
        store: jsonFileStore<NotificationState>(stateFilePath(dataDir)),
        lost: new AbortController().signal,
        deliveries: (notifier) => notifier,
        end: () => Promise.resolve(unlock()),
      });
    },
    close: () => Promise.resolve(),
  };
}
