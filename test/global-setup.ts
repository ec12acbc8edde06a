/**
 * Vitest global setup: every test run gets one fresh temporary folder (`TMPDIR`, which
 * `os.tmpdir()` reads), removed when the run ends, so the many temp data folders, packages and
 * template folders the tests make never pile up on the machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'apollia-tests-'));
  const previous = process.env['TMPDIR'];
  process.env['TMPDIR'] = root;
  return () => {
    if (previous === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = previous;
    rmSync(root, { recursive: true, force: true });
  };
}
