import { describe, expect, it } from 'vitest';
import { cliProgramHere, DEB_BINARY, isTranslocated } from './cli-program';
import { startedWithoutSandbox } from './sandbox';

const BINARY = '/opt/Apollia Desktop/apollia-desktop';
const noSwitch = () => false;

describe('startedWithoutSandbox', () => {
  it('is false for a normal start, a double-click and other switches', () => {
    expect(startedWithoutSandbox({ argv: [BINARY], hasSwitch: noSwitch, env: {} })).toBe(false);
    expect(
      startedWithoutSandbox({
        argv: [BINARY, '/home/ada/a.apo', '--enable-logging', '--disable-gpu-sandbox', '--no-sandboxing'],
        hasSwitch: noSwitch,
        env: {},
      }),
    ).toBe(false);
    expect(startedWithoutSandbox({ argv: [BINARY], hasSwitch: noSwitch, env: { ELECTRON_DISABLE_SANDBOX: '' } })).toBe(
      false,
    );
  });

  it.each([
    ['--no-sandbox typed', [BINARY, '--no-sandbox'], noSwitch, {}],
    [
      '--no-sandbox after a file (an AppImage launcher adds it)',
      [BINARY, '/home/ada/a.apo', '--no-sandbox'],
      noSwitch,
      {},
    ],
    ['a single dash', [BINARY, '-no-sandbox'], noSwitch, {}],
    ['with a value', [BINARY, '--no-sandbox=1'], noSwitch, {}],
    ['Chromium reads the switch (from anywhere it takes them)', [BINARY], (name: string) => name === 'no-sandbox', {}],
    ['ELECTRON_DISABLE_SANDBOX', [BINARY], noSwitch, { ELECTRON_DISABLE_SANDBOX: '1' }],
  ])('is true for %s', (_name, argv, hasSwitch, env) => {
    expect(startedWithoutSandbox({ argv, hasSwitch, env })).toBe(true);
  });
});

describe('cliProgramHere', () => {
  it('is the command on PATH for the deb, whose /usr/bin/apollia-desktop links the binary', () => {
    expect(DEB_BINARY).toBe(BINARY);
    expect(cliProgramHere({ platform: 'linux', isPackaged: true, execPath: BINARY, env: {} })).toBe('apollia-desktop');
  });

  it('is the quoted binary inside the bundle on macOS, and an unpacked Linux binary’s path', () => {
    expect(
      cliProgramHere({
        platform: 'darwin',
        isPackaged: true,
        execPath: '/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop',
        env: {},
      }),
    ).toBe(`'/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop'`);
    expect(
      cliProgramHere({ platform: 'linux', isPackaged: true, execPath: '/home/ada/apollia/apollia-desktop', env: {} }),
    ).toBe('/home/ada/apollia/apollia-desktop');
  });

  it('is none for a GUI-subsystem Windows binary and an AppImage', () => {
    expect(
      cliProgramHere({
        platform: 'win32',
        isPackaged: true,
        execPath: 'C:\\Users\\ada\\AppData\\Local\\Programs\\Apollia Desktop\\apollia-desktop.exe',
        env: {},
      }),
    ).toBeNull();
    expect(
      cliProgramHere({
        platform: 'linux',
        isPackaged: true,
        execPath: '/tmp/.mount_ApolliXYZ/apollia-desktop',
        env: { APPIMAGE: '/home/ada/Apollia.AppImage' },
      }),
    ).toBeNull();
  });

  it('is the npm-linked name when not packaged', () => {
    expect(
      cliProgramHere({
        platform: 'linux',
        isPackaged: false,
        execPath: '/repo/node_modules/electron/dist/electron',
        env: {},
      }),
    ).toBe('apollia-desktop');
  });
});

describe('macOS App Translocation', () => {
  const translocated =
    '/private/var/folders/x7/4k2_mh8d1_n0bz9w6t0b0c3r0000gn/T/AppTranslocation/5C1F2A9E-0B6D-4E3B-9A43-2F6C1B2E8D11/d/Apollia Desktop.app/Contents/MacOS/Apollia Desktop';

  it('is detected from the binary’s path, with or without /private', () => {
    expect(isTranslocated('darwin', translocated)).toBe(true);
    expect(isTranslocated('darwin', translocated.replace('/private', ''))).toBe(true);
    expect(isTranslocated('darwin', '/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop')).toBe(false);
    expect(isTranslocated('darwin', '/Users/ada/Downloads/AppTranslocation/Apollia Desktop.app/x')).toBe(false);
    expect(isTranslocated('linux', translocated)).toBe(false);
  });

  it('shows no command to type: that path is gone at the next start', () => {
    const facts = { platform: 'darwin' as const, isPackaged: true, env: {} };
    expect(cliProgramHere({ ...facts, execPath: translocated })).toBeNull();
    expect(
      cliProgramHere({ ...facts, execPath: '/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop' }),
    ).toBe("'/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop'");
  });
});
