import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXIT } from '../electron/core/cli/cli-io';
import { DEB_BINARY } from '../electron/main/cli-program';
import { HEADLESS_SWITCHES } from '../electron/main/headless';
import { tempDir } from './helpers/test-api';

// The deb's /usr/bin/apollia-desktop (resources/linux/apollia-desktop-launcher.sh) run for real, by
// sh and dash, with a stub in place of the app binary that prints the argv it was given; and the
// after-install / after-remove templates and the systemd unit held to the same launcher and switches.

const root = new URL('../', import.meta.url);
const LAUNCHER = 'resources/linux/apollia-desktop-launcher.sh';
const launcherText = readFileSync(new URL(LAUNCHER, root), 'utf8');
const config = parse(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as Record<string, any>;
const DEFAULT_TEMPLATES = new URL('node_modules/app-builder-lib/templates/linux/', root);

/** The launcher with its binary path pointed at a stub that prints each argument on a line, then exits 7. */
function launcherWithStub(): string {
  const dir = tempDir('apollia-launcher-');
  const stub = join(dir, 'app binary');
  writeFileSync(stub, '#!/bin/sh\nfor arg in "$@"; do printf \'%s\\n\' "$arg"; done\nexit 7\n');
  chmodSync(stub, 0o755);
  expect(launcherText.split(`'${DEB_BINARY}'`)).toHaveLength(2);
  const launcher = join(dir, 'apollia-desktop');
  writeFileSync(launcher, launcherText.replace(`'${DEB_BINARY}'`, `'${stub}'`));
  chmodSync(launcher, 0o755);
  return launcher;
}

const shells = ['sh', 'dash'].filter((shell) => spawnSync(shell, ['-c', 'true']).status === 0);

/** Runs the launcher under `shell` with `env` and `args`; answers the argv the binary got, and its exit code. */
function run(shell: string, env: Record<string, string>, args: string[]): { argv: string[]; code: number | null } {
  const result = spawnSync(shell, [launcherWithStub(), ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    encoding: 'utf8',
  });
  expect(result.stderr).toBe('');
  return { argv: result.stdout.split('\n').slice(0, -1), code: result.status };
}

describe.each(shells)('the deb’s launcher, run by %s', (shell) => {
  it('adds the headless switches first when neither DISPLAY nor WAYLAND_DISPLAY is set, and passes the exit code', () => {
    expect(run(shell, {}, ['inspect', '/home/ada/my file.apo', '--json'])).toEqual({
      argv: [...HEADLESS_SWITCHES, 'inspect', '/home/ada/my file.apo', '--json'],
      code: 7,
    });
    expect(run(shell, { DISPLAY: '', WAYLAND_DISPLAY: '' }, ['serve']).argv).toEqual([...HEADLESS_SWITCHES, 'serve']);
  });

  it('passes the arguments untouched where there is a display (X11 or Wayland)', () => {
    for (const env of [{ DISPLAY: ':0' }, { WAYLAND_DISPLAY: 'wayland-0' }] as Record<string, string>[])
      expect(run(shell, env, ['list', '$HOME', '*', '']).argv).toEqual(['list', '$HOME', '*', '']);
    expect(run(shell, { DISPLAY: ':0' }, []).argv).toEqual([]);
  });

  it('leaves a start that names its own Ozone platform as typed (the systemd unit names it)', () => {
    expect(run(shell, {}, ['--ozone-platform=headless', '--disable-gpu', 'serve']).argv).toEqual([
      '--ozone-platform=headless',
      '--disable-gpu',
      'serve',
    ]);
    expect(run(shell, {}, ['--ozone-platform=wayland']).argv).toEqual(['--ozone-platform=wayland']);
  });
});

describe('the launcher in the deb', () => {
  it('is executable in the repository (fpm keeps the mode) and starts the deb’s binary', () => {
    expect(statSync(new URL(LAUNCHER, root)).mode & 0o111).toBe(0o111);
    expect(launcherText.startsWith('#!/bin/sh\n')).toBe(true);
    expect(launcherText).toContain(`APP='${DEB_BINARY}'`);
    expect(launcherText).toContain(`exec "$APP" ${HEADLESS_SWITCHES.join(' ')} "$@"`);
  });

  it('is mapped by fpm to the path the after-install script registers as /usr/bin/apollia-desktop', () => {
    const executable = config.linux.executableName as string;
    const mapping = (config.deb.fpm as string[]).find((arg) => arg.startsWith(`${LAUNCHER}=`)) as string;
    const target = mapping.slice(LAUNCHER.length + 1);
    // The templates' variables as FpmTarget.createScripts fills them.
    const fill = (text: string) =>
      text.replaceAll('${executable}', executable).replaceAll('${sanitizedProductName}', config.productName);
    const afterInstall = fill(readFileSync(new URL(config.deb.afterInstall, root), 'utf8'));
    expect(afterInstall).toContain(
      `update-alternatives --install '/usr/bin/${executable}' '${executable}' '${target}' 100 || ln -sf '${target}' '/usr/bin/${executable}'`,
    );
    expect(afterInstall).toContain(`    ln -sf '${target}' '/usr/bin/${executable}'\n`);
    const afterRemove = fill(readFileSync(new URL(config.deb.afterRemove, root), 'utf8'));
    expect(afterRemove).toContain(`update-alternatives --remove '${executable}' '${target}'\n`);
    expect(`/opt/${config.productName}/${executable}`).toBe(DEB_BINARY);
  });

  it('keeps electron-builder’s after-install and after-remove scripts but for the alternative’s path', () => {
    for (const name of ['after-install.tpl', 'after-remove.tpl']) {
      const ours = readFileSync(new URL(`resources/linux/${name}`, root), 'utf8');
      const own = readFileSync(new URL(name, DEFAULT_TEMPLATES), 'utf8');
      const added = /\n# Apollia Desktop: [^]*?# Apollia Desktop: end\n\n/.exec(ours)?.[0] as string;
      expect(added, name).toBeDefined();
      const expected = own.replaceAll(
        "'/opt/${sanitizedProductName}/${executable}'",
        "'/usr/lib/${executable}/${executable}'",
      );
      expect(ours.replace(added, '\n'), name).toBe(expected);
      // chrome-sandbox's mode, the MIME and desktop databases and the AppArmor profile are kept.
      if (name === 'after-install.tpl')
        expect(ours).toContain("chmod 4755 '/opt/${sanitizedProductName}/chrome-sandbox'");
    }
  });
});

describe('the systemd unit', () => {
  it('starts serve through the launcher with the headless switches named', () => {
    const unit = readFileSync(new URL('resources/linux/apollia-desktop-serve.service', root), 'utf8');
    const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(' ');
    expect(exec).toEqual([`/usr/bin/${config.linux.executableName}`, ...HEADLESS_SWITCHES, 'serve']);
    expect(unit).not.toMatch(/^ExecStart=.*--headless(?:\s|$)/m);
  });

  it('does not restart on serve’s busy exit, and leaves the setuid chrome-sandbox usable', () => {
    const unit = readFileSync(new URL('resources/linux/apollia-desktop-serve.service', root), 'utf8');
    const service = unit.slice(unit.indexOf('[Service]'), unit.indexOf('[Install]'));
    const keys = new Map(
      service
        .split('\n')
        .filter((line) => /^\w+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(keys.get('Restart')).toBe('on-failure');
    expect(keys.get('RestartPreventExitStatus')).toBe(String(EXIT.busy));
    expect(keys.has('NoNewPrivileges')).toBe(false);
    // Other settings that set no_new_privs as a side effect (systemd.exec(5)).
    for (const implied of ['SystemCallFilter', 'RestrictNamespaces', 'MemoryDenyWriteExecute', 'LockPersonality'])
      expect(keys.has(implied), implied).toBe(false);
  });
});
