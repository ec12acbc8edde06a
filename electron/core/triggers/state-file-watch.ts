/**
 * Watches the data folder for `state.json` being replaced, so a running trigger host picks up what
 * the app or the CLI changed (arm, disarm, rotate, update, uninstall) at once. Changes within
 * 100 ms are one reload. A folder that cannot be watched is reported, never crashed on: changes are
 * then picked up on restart.
 */
import { watch as watchFs } from 'node:fs';
import { STATE_FILE } from '../store/store';

/** A running watch. */
export interface StateFileWatch {
  close(): void;
}

/** Calls `onChange` (debounced) whenever the state file of `dataDir` is replaced; `onProblem` says why it cannot. */
export function watchStateFile(
  dataDir: string,
  onChange: () => void,
  onProblem: (line: string) => void,
): StateFileWatch | null {
  let timer: NodeJS.Timeout | null = null;
  try {
    const watcher = watchFs(dataDir, (_event, name) => {
      if (name !== null && name !== STATE_FILE) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        onChange();
      }, 100);
    });
    watcher.on('error', () =>
      onProblem('problem the store can no longer be watched; changes are picked up on restart'),
    );
    return {
      close() {
        watcher.close();
        if (timer) clearTimeout(timer);
      },
    };
  } catch (error) {
    onProblem(`problem the store cannot be watched (${(error as Error).message}); changes are picked up on restart`);
    return null;
  }
}
