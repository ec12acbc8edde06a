/**
 * Where a CLI command's Chromium keeps its session data (`app.setPath('sessionData', …)`, before
 * `ready`). By default that is `userData`, the window's own profile (cookies, caches, local
 * storage, `~/.config/Apollia Desktop` on Linux), which Chromium does not lock between processes: a
 * command or `serve` running beside the window would open the same profile. A command draws
 * nothing and keeps nothing there, so each one gets a fresh private folder (mode 0700) in the
 * system's temporary folder, removed when it exits. The store stays where it is (`userData`, or
 * `--data-dir`): only Chromium's files move. No `electron` import: tested in plain Node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** A command's session folder, and its removal. */
export interface CommandSession {
  path: string;
  /** Removes the folder; never throws (Windows may still hold a file open as the process ends). */
  remove(): void;
}

/** Makes a private session folder for one command under `tempRoot` (`os.tmpdir()`). */
export function makeCommandSession(tempRoot: string): CommandSession {
  const path = mkdtempSync(join(tempRoot, 'apollia-desktop-command-'));
  return {
    path,
    remove: () => {
      try {
        rmSync(path, { recursive: true, force: true });
      } catch {
        // Left for the system's temporary-folder cleanup.
      }
    },
  };
}
