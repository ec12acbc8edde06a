/**
 * The built main process (out/main/index.js, what the packaged app runs) started with a CLI command
 * runs the command line and exits with its code, without opening anything. Electron cannot run on
 * the build machines (TOOLCHAIN.md): the bundle runs under Node with `electron` resolved to a stub
 * whose `app` records what the entry asked of it. The stub exports exactly the names the bundle
 * imports from `electron`, so a window-side call made in CLI mode would throw.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from './helpers/built-output';

const ROOT = new URL('..', import.meta.url).pathname;
const MAIN = join(ROOT, 'out/main/index.js');

/** Writes the stub `electron` module and a loader hook resolving `electron` to it; the `--import` file. */
function electronStub(): string {
  const dir = mkdtempSync(join(tmpdir(), 'apollia-electron-stub-'));
  const names = new Set<string>();
  for (const file of readdirSync(join(ROOT, 'out/main')).filter((name) => name.endsWith('.js'))) {
    for (const match of readFileSync(join(ROOT, 'out/main', file), 'utf8').matchAll(
      /import\s*\{([^}]*)\}\s*from\s*["']electron["']/g,
    )) {
      for (const name of (match[1] as string).split(','))
        if (name.trim()) names.add(name.trim().split(/\s+as\s+/)[0] as string);
    }
  }
  const trap = (name: string) =>
    `new Proxy({}, { get(_t, key) { if (key === 'then') return undefined; throw new Error('electron.${name}.' + String(key) + ' used by a CLI command'); } })`;
  const exports = [...names].filter((name) => name !== 'app').map((name) => `export const ${name} = ${trap(name)};`);
  writeFileSync(
    join(dir, 'electron.mjs'),
    `process.defaultApp = true;
const log = (what) => process.stderr.write('[app] ' + what + '\\n');
export const app = {
  isPackaged: false,
  getAppPath: () => ${JSON.stringify(ROOT)},
  requestSingleInstanceLock: () => { log('requestSingleInstanceLock'); return true; },
  disableHardwareAcceleration: () => log('disableHardwareAcceleration'),
  setPath: (name, path) => log('setPath ' + name + ' ' + path),
  commandLine: {
    getSwitchValue: (name) => (process.argv.find((arg) => arg.startsWith('--' + name + '=')) ?? '').split('=')[1] ?? '',
    hasSwitch: (name) => process.argv.some((arg) => arg === '--' + name || arg.startsWith('--' + name + '=')),
  },
  quit: () => log('quit'),
  exit: (code) => { log('exit ' + code); process.exit(code); },
  once: () => {},
  on: (event) => log('on ' + event),
  whenReady: () => { log('whenReady'); return new Promise(() => {}); },
};
${exports.join('\n')}
`,
  );
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) { return specifier === 'electron' ? { url: ${JSON.stringify(pathToFileURL(join(dir, 'electron.mjs')).href)}, shortCircuit: true } : next(specifier, context); }\n`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
  return join(dir, 'register.mjs');
}

function runMain(args: string[]) {
  return spawnSync(process.execPath, ['--import', electronStub(), MAIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'apollia-home-')), XDG_CONFIG_HOME: '' },
  });
}

describe.skipIf(skipWithoutBuild(MAIN))(
  'the built main process as the command line (run `npm run build` first)',
  () => {
    it('inspects a template with the CLI, in the main bundle’s own checker, and exits 0 without the lock or a window', () => {
      const run = runMain(['inspect', 'resources/templates/code-review']);
      expect(run.stdout).toContain('name: code-review');
      expect(run.stderr).toContain('[app] exit 0');
      expect(run.stderr).not.toContain('requestSingleInstanceLock');
      expect(run.stderr).not.toContain('whenReady');
      expect(run.status).toBe(0);
      // No GPU, and Chromium's session data in a private temporary folder, not the window's profile; removed at exit.
      expect(run.stderr.indexOf('[app] disableHardwareAcceleration')).toBeGreaterThanOrEqual(0);
      const session = /\[app\] setPath sessionData (\S+)\n/.exec(run.stderr)?.[1] as string;
      expect(session.startsWith(join(tmpdir(), 'apollia-desktop-command-'))).toBe(true);
      expect(existsSync(session)).toBe(false);
    });

    it('refuses the window on the headless Ozone platform (Linux): a message and exit 1, no lock', () => {
      const run = runMain(['--ozone-platform=headless', '--disable-gpu']);
      if (process.platform !== 'linux') return;
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('there is no display here');
      expect(run.stderr).not.toContain('requestSingleInstanceLock');
    });

    it('runs a command on the headless Ozone platform', () => {
      const run = runMain(['--ozone-platform=headless', '--disable-gpu', 'inspect', 'resources/templates/code-review']);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('name: code-review');
    });

    it('exits 2 with the usage for a usage error, and 1 for a refused path', () => {
      const usage = runMain(['inspect']);
      expect(usage.status).toBe(2);
      expect(usage.stderr).toContain('inspect --help` shows the usage');
      const refused = runMain(['inspect', 'package.json']);
      expect(refused.status).toBe(1);
    });

    it('starts the app (the lock, then the window side) when the first argument is not a command', () => {
      const run = spawnSync(
        process.execPath,
        [
          '--import',
          electronStub(),
          '-e',
          // The stub throws at the window side's first Electron call, which ends the process. The fallback exit is
          // armed only once the bundle has loaded: armed before, it could end the process mid-load on a busy machine
          // (loading takes over 2 s there), before the entry had asked for the lock.
          `await import(${JSON.stringify(pathToFileURL(MAIN).href)}); setTimeout(() => process.exit(0), 1500);`,
          '--input-type=module',
          '/tmp/x.apo',
        ],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(run.stderr).toContain('[app] requestSingleInstanceLock');
      // The stub stops the window side at its first Electron call: the privileged scheme, made after the lock.
      expect(run.stderr.indexOf('electron.protocol.registerSchemesAsPrivileged')).toBeGreaterThan(
        run.stderr.indexOf('[app] requestSingleInstanceLock'),
      );
    });
  },
);
