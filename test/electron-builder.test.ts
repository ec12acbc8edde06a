import Ajv from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { trayIcon } from '../electron/main/background';
// @ts-expect-error: a plain .mjs script (resources/build/pack-icons.mjs), no declarations
import { ICNS_ENTRIES, ICO_SIZES, icns, ico } from '../resources/build/pack-icons.mjs';

// electron-builder.yml and package.json checked statically (packaging downloads Electron: never
// run here): against electron-builder's own JSON schema, then against what each target's code
// requires (app-builder-lib 26: FpmTarget, NsisTarget, the mac packager).

const root = new URL('../', import.meta.url);
const config = parse(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as Record<string, any>;
const scheme = JSON.parse(readFileSync(new URL('node_modules/app-builder-lib/scheme.json', root), 'utf8'));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The RGBA pixels of an 8-bit RGBA PNG without interlace, each row's filter byte 0 (make-icons.mjs writes those). */
function inflatedPixels(bytes: Buffer, size: number): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    if (bytes.subarray(at + 4, at + 8).toString('ascii') === 'IDAT')
      chunks.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    expect(raw[y * (size * 4 + 1)]).toBe(0);
    rows.push(raw.subarray(y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1)));
  }
  return Buffer.concat(rows);
}

/** The entries of an .icns file: type → data. */
function icnsEntries(bytes: Buffer): Map<string, Buffer> {
  expect(bytes.subarray(0, 4).toString('ascii')).toBe('icns');
  expect(bytes.readUInt32BE(4)).toBe(bytes.length);
  const entries = new Map<string, Buffer>();
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at + 4);
    entries.set(bytes.subarray(at, at + 4).toString('ascii'), bytes.subarray(at + 8, at + length));
    at += length;
  }
  return entries;
}

/** The images of an .ico file, with the size its directory claims. */
function icoImages(bytes: Buffer): { size: number; data: Buffer }[] {
  expect(bytes.readUInt16LE(0)).toBe(0);
  expect(bytes.readUInt16LE(2)).toBe(1);
  return Array.from({ length: bytes.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const size = bytes[entry] === 0 ? 256 : (bytes[entry] as number);
    return {
      size,
      data: bytes.subarray(
        bytes.readUInt32LE(entry + 12),
        bytes.readUInt32LE(entry + 12) + bytes.readUInt32LE(entry + 8),
      ),
    };
  });
}

const read = (path: string) => readFileSync(new URL(path, root));

/** `getPlatformIconFileName` of builder-util: a path without a dot gets the platform's extension. */
const platformIcon = (value: string, mac: boolean) =>
  value.includes('.')
    ? value.replace(mac ? '.ico' : '.icns', mac ? '.icns' : '.ico')
    : `${value}.${mac ? 'icns' : 'ico'}`;

describe('electron-builder.yml', () => {
  it('is valid against electron-builder’s own JSON schema (a misspelled key is an error, not ignored)', () => {
    const validate = new Ajv({ strict: false, allErrors: true }).compile(scheme);
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...config, linux: { ...config.linux, maintaner: 'x' } })).toBe(false);
    expect(validate({ ...config, mac: { ...config.mac, notarise: true } })).toBe(false);
  });

  it('names the app', () => {
    expect(config.appId).toBe('app.apollia.desktop');
    expect(config.productName).toBe('Apollia Desktop');
    // Top-level executableName would set productFilename on every OS (the Mac bundle apollia-desktop.app,
    // PlatformPackager.computeAppOutDir): Linux only.
    expect(config.executableName).toBeUndefined();
    expect(config.mac.executableName).toBeUndefined();
    expect(config.linux.executableName).toBe('apollia-desktop');
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toContain(`"/Applications/${config.productName}.app/Contents/MacOS/${config.productName}"`);
    expect(readme).not.toMatch(/apollia-desktop\.app/);
  });

  it('packs the built app and ships only the run-time data it reads', () => {
    expect(config.files).toContain('out/**');
    // The catalogues are compiled in (shared/manifests/catalogues.ts imports them); only the templates and the tray icon are read
    // from disk.
    expect(config.extraResources).toEqual([
      { from: 'resources/templates', to: 'templates', filter: ['**/*'] },
      { from: 'resources/icons', to: 'icons', filter: ['32x32.png'] },
      { from: 'resources/tray', to: 'icons', filter: ['trayTemplate.png', 'trayTemplate@2x.png'] },
    ]);
    // The tray icon main reads on each OS is shipped, where main reads it (dev: resources/<from>).
    const shipped = new Set(
      (config.extraResources as { from: string; to: string; filter: string[] }[])
        .filter((entry) => entry.to === 'icons')
        .flatMap((entry) => entry.filter.map((file) => `${entry.from}/${file}`)),
    );
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const icon = trayIcon(platform);
      const from = [...shipped].find((path) => path.endsWith(`/${icon.file}`)) as string;
      expect(from, platform).toBeDefined();
      expect(existsSync(new URL(from, root)), from).toBe(true);
    }
    const main = readFileSync(new URL('electron/main/index.ts', root), 'utf8');
    expect(main).toContain("join(resourcesDir(), 'icons', icon.file)");
    expect(existsSync(new URL('resources/templates/README.md', root))).toBe(true);
    expect(readFileSync(new URL('shared/manifests/catalogues.ts', root), 'utf8')).toContain(
      "from '../../resources/catalogues/native-tools.json'",
    );
  });

  it('flips the Electron fuses DESIGN.md "Security of the app itself" asks for', () => {
    expect(config.electronFuses).toEqual({
      // An unsigned Apple Silicon build must have its ad-hoc signature reset after the flip, or it does not launch.
      resetAdHocDarwinSignature: true,
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    const validate = new Ajv({ strict: false }).compile(scheme.definitions.FuseOptionsV1);
    expect(validate(config.electronFuses), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...config.electronFuses, runAsNod: false })).toBe(false);
    expect(config.asar).toBe(true);
  });

  it('associates .apo with the app, and the desktop entry gets its MimeType once', () => {
    const associations = config.fileAssociations as Record<string, unknown>[];
    expect(associations).toHaveLength(1);
    expect(associations[0]).toMatchObject({
      ext: 'apo',
      mimeType: 'application/vnd.apollia.package',
      role: 'Viewer',
      isPackage: false,
    });
    // LinuxTargetHelper.computeDesktopEntry writes linux.mimeTypes plus each association's mimeType,
    // and overwrites desktop.entry's MimeType and Comment: the association must be the only source.
    const mimeTypes = [...(config.linux.mimeTypes ?? []), ...associations.map((a) => a.mimeType).filter(Boolean)];
    expect(mimeTypes).toEqual(['application/vnd.apollia.package']);
    expect(config.linux.desktop?.entry?.MimeType).toBeUndefined();
    expect(config.linux.desktop?.entry?.Comment).toBeUndefined();
    expect(config.linux.desktop?.entry?.Exec).toBeUndefined(); // electron-builder throws on it
    const utis = config.mac.extendInfo.UTExportedTypeDeclarations as Record<string, any>[];
    expect(utis).toHaveLength(1);
    expect(utis[0]?.UTTypeIdentifier).toBe('app.apollia.package');
    expect(utis[0]?.UTTypeTagSpecification['public.filename-extension']).toEqual(['apo']);
    expect(utis[0]?.UTTypeTagSpecification['public.mime-type']).toEqual(['application/vnd.apollia.package']);
    // electronMac copies the association's .icns into Contents/Resources under its own name.
    expect(utis[0]?.UTTypeIconFile).toBe(basename(platformIcon(associations[0]?.icon as string, true)));
  });

  it('names the desktop entry as Electron names the window (desktopName: Wayland app_id)', () => {
    expect(pkg.desktopName).toBe(`${config.linux.executableName}.desktop`);
    expect(config.linux.syncDesktopName).toBe(true);
  });

  it('ships Linux as a deb only: the AppImage launcher turns the sandbox off where AppArmor restricts user namespaces', () => {
    expect(config.linux.target).toEqual(['deb']);
    expect(config.appImage).toBeUndefined();
  });

  it('gives the deb what FpmTarget requires: a homepage, a maintainer with an address, a description', () => {
    // FpmTarget.computeFpmMetaInfoOptions: homepage (package.json `homepage` or `repository`),
    // maintainer (linux/deb `maintainer`, else package.json author with an email), else it throws.
    expect(new URL(pkg.homepage).protocol).toBe('https:');
    const maintainer = (config.deb?.maintainer ?? config.linux.maintainer) as string;
    expect(maintainer).toMatch(/^[^<>]+ <[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>$/);
    expect(pkg.author).toMatchObject({ name: expect.any(String), email: expect.stringMatching(/@/) });
    expect(pkg.description.length).toBeGreaterThan(10);
    expect(config.linux.description.length).toBeGreaterThan(10);
    expect(config.linux.icon).toBe('resources/icons');
    for (const size of [16, 32, 64, 128, 256, 512])
      expect(pngSize(read(`resources/icons/${size}x${size}.png`))).toEqual({ width: size, height: size });
  });

  it('gives the Mac build an .icns, the hardened runtime and notarization from the environment', () => {
    expect(config.mac.icon).toMatch(/\.icns$/);
    const entries = icnsEntries(read(config.mac.icon));
    for (const [type, size] of ICNS_ENTRIES as [string, number][])
      expect(pngSize(entries.get(type) as Buffer), type).toEqual({ width: size, height: size });
    expect(existsSync(new URL(platformIcon(config.fileAssociations[0].icon, true), root))).toBe(true);
    expect(config.mac.hardenedRuntime).toBe(true);
    // true: notarize when APPLE_API_KEY… or APPLE_ID… are set (MacTargetHelper.getNotarizeOptions), skipped with a
    // warning when absent.
    expect(config.mac.notarize).toBe(true);
    expect(config.mac.category).toMatch(/^public\.app-category\./);
  });

  it('gives NSIS .ico icons holding a 256-pixel image, and signs with SHA-256 when a certificate is given', () => {
    expect(config.win.target).toEqual(['nsis']);
    for (const icon of [
      config.win.icon,
      config.nsis.installerIcon,
      config.nsis.uninstallerIcon,
      platformIcon(config.fileAssociations[0].icon, false),
    ] as string[]) {
      expect(icon, icon).toMatch(/\.ico$/);
      const images = icoImages(read(icon));
      expect(images.map((image) => image.size)).toContain(256);
      for (const image of images) expect(pngSize(image.data)).toEqual({ width: image.size, height: image.size });
    }
    expect(config.win.signtoolOptions.signingHashAlgorithms).toEqual(['sha256']);
  });

  it('never needs a credential in the file: signing reads the environment, and a build without one is not refused', () => {
    expect(config.forceCodeSigning).toBe(false);
    const text = readFileSync(new URL('electron-builder.yml', root), 'utf8');
    for (const key of ['cscLink', 'cscKeyPassword', 'certificatePassword', 'certificateFile', 'appleId'])
      expect(text).not.toContain(`${key}:`);
  });

  it('gives macOS a template tray icon: black, its shape in the alpha channel alone, with its @2x', () => {
    expect(trayIcon('darwin')).toEqual({ file: 'trayTemplate.png', template: true });
    expect(trayIcon('linux').template).toBe(false);
    for (const [file, size] of [
      ['resources/tray/trayTemplate.png', 16],
      ['resources/tray/trayTemplate@2x.png', 32],
    ] as const) {
      const bytes = read(file);
      expect(pngSize(bytes)).toEqual({ width: size, height: size });
      expect(bytes[25], 'RGBA').toBe(6);
      const pixels = inflatedPixels(bytes, size);
      const alphas = new Set<number>();
      for (let i = 0; i < pixels.length; i += 4) {
        expect([pixels[i], pixels[i + 1], pixels[i + 2]]).toEqual([0, 0, 0]);
        alphas.add(pixels[i + 3] as number);
      }
      // A shape, not a filled square: some pixels clear, some solid.
      expect(alphas.has(0) && alphas.has(255)).toBe(true);
    }
  });

  it('commits the .icns and .ico packed from the current PNGs (node resources/build/pack-icons.mjs)', () => {
    expect(read('resources/build/icon.icns').equals(icns())).toBe(true);
    expect(read('resources/build/icon.ico').equals(ico())).toBe(true);
    expect(ICO_SIZES).toContain(256);
  });

  it('ships serve as a systemd user service in the deb, running the deb’s own command', () => {
    const mapping = (config.deb.fpm as string[]).find((arg) =>
      arg.endsWith('=/usr/lib/systemd/user/apollia-desktop-serve.service'),
    ) as string;
    expect(mapping).toBeDefined();
    const unit = readFileSync(new URL(mapping.split('=')[0] as string, root), 'utf8');
    const sections = new Map<string, Map<string, string>>();
    let section = '';
    for (const line of unit.split('\n').map((l) => l.trim())) {
      if (line === '' || line.startsWith('#')) continue;
      const header = /^\[(\w+)\]$/.exec(line);
      if (header) sections.set((section = header[1] as string), new Map());
      else sections.get(section)?.set(line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1));
    }
    expect([...sections.keys()]).toEqual(['Unit', 'Service', 'Install']);
    const exec = sections.get('Service')?.get('ExecStart')?.split(' ') ?? [];
    expect(exec[0]).toBe(`/usr/bin/${config.linux.executableName}`);
    expect(exec.at(-1)).toBe('serve');
    expect(sections.get('Service')?.get('KillSignal')).toBe('SIGTERM');
    expect(sections.get('Install')?.get('WantedBy')).toBe('default.target');
  });

  it('never publishes from a build', () => {
    expect(config.publish).toBeNull();
  });
});
