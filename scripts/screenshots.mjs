/**
 * `npm run screenshots [-- SPEC...]`: refreshes the committed gallery of screens, `e2e/screenshots/`,
 * on purpose. It runs the e2e specs (build first: `npm run build`) with their screenshots written
 * there instead of the ignored `test-results/screenshots/` an ordinary test run uses; with no
 * spec named, the gallery is emptied first, so a screen that is gone leaves with it. Review the
 * diff (`git status e2e/screenshots`) and commit it with the change that made it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const gallery = join(root, 'e2e', 'screenshots');
const specs = process.argv.slice(2);
if (specs.length === 0) for (const file of readdirSync(gallery)) if (file.endsWith('.png')) rmSync(join(gallery, file));
const playwright = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const run = spawnSync(process.execPath, [playwright, 'test', ...specs], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, E2E_SCREENSHOTS_DIR: gallery },
});
process.exit(run.status ?? 1);
