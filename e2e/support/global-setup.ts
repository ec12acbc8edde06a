/**
 * Playwright global setup: one fresh temporary folder for the whole e2e run (`TMPDIR`, which
 * `os.tmpdir()` reads in the workers and the harness servers they start), removed at the end, so
 * the packages and data folders the specs make never pile up on the machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function globalSetup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'apollia-e2e-run-'));
  process.env['TMPDIR'] = root;
  return () => rmSync(root, { recursive: true, force: true });
}
