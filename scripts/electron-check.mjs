/**
 * `npm start` and `npm run dev` run this first: is the Electron binary there? It looks, never
 * asks: `node_modules/electron/path.txt` and the file it names under `dist/` (or under
 * `ELECTRON_OVERRIDE_DIST_PATH`), never `require('electron')`, which would try to download it.
 * When it is missing, one plain paragraph says what is missing, the command that fetches it, and
 * that the command line and the tests work without it; exit 1, no stack trace.
 *
 *   node scripts/electron-check.mjs     (APOLLIA_ELECTRON_DIR: another electron package folder, for its test)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const electronDir = process.env.APOLLIA_ELECTRON_DIR ?? join(root, 'node_modules', 'electron');
const pathFile = join(electronDir, 'path.txt');
const named = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
const binary = process.env.ELECTRON_OVERRIDE_DIST_PATH
  ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, named || 'electron')
  : named
    ? join(electronDir, 'dist', named)
    : null;

if (binary === null || !existsSync(binary)) {
  // Electron 45's package has no install step: its binary is fetched by its `install-electron` command (or by the
  // first `require('electron')`), never by `npm install`.
  let version = '';
  try {
    version = ` ${JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version}`;
  } catch {}
  const what =
    binary === null
      ? `the Electron binary is not installed (${pathFile} is missing: npm installs the electron package without it)`
      : `the Electron binary ${binary} is missing`;
  process.stderr.write(
    `Apollia Desktop cannot start: ${what}. Fetch it with \`npx install-electron\` (it downloads Electron${version} from github.com), then run \`npm start\` again. If github.com cannot be reached from here (the download then stops with "fetch failed"), set ELECTRON_MIRROR to a mirror of Electron's releases, or ELECTRON_OVERRIDE_DIST_PATH to the folder of an Electron${version} you already have. The command line and the tests work without it: \`npm run build\`, then \`node out/cli/cli.cjs --help\`; \`npm test\` runs the end-to-end tests in Chromium instead.\n`,
  );
  process.exit(1);
}
