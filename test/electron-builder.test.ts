import Ajv from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = new URL('../', import.meta.url);
const config = parse(readFileSync(new URL('electron-builder.yml', root), 'utf8')) as Record<string, any>;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(new URL(path, root));
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder.yml', () => {
  it('names the app', () => {
    expect(config.appId).toBe('app.apollia.desktop');
    expect(config.productName).toBe('Apollia Desktop');
  });

  it('packs the built app and ships the runtime data beside it', () => {
    expect(config.files).toContain('out/**');
    const extra = (config.extraResources as { from: string; to: string }[]).map((entry) => [entry.from, entry.to]);
    expect(extra).toContainEqual(['resources/catalogues', 'catalogues']);
    expect(extra).toContainEqual(['resources/templates', 'templates']);
    expect(existsSync(new URL('resources/catalogues/native-tools.json', root))).toBe(true);
  });

  it('associates .apo with the app, with a MIME type for Linux and a UTI for macOS', () => {
    const associations = config.fileAssociations as Record<string, unknown>[];
    expect(associations).toHaveLength(1);
    expect(associations[0]).toMatchObject({
      ext: 'apo',
      mimeType: 'application/vnd.apollia.package',
      role: 'Viewer',
      isPackage: false,
    });
    expect(config.linux.mimeTypes).toEqual(['application/vnd.apollia.package']);
    const utis = config.mac.extendInfo.UTExportedTypeDeclarations as Record<string, any>[];
    expect(utis).toHaveLength(1);
    expect(utis[0]?.UTTypeIdentifier).toBe('app.apollia.package');
    expect(utis[0]?.UTTypeTagSpecification['public.filename-extension']).toEqual(['apo']);
    expect(utis[0]?.UTTypeTagSpecification['public.mime-type']).toEqual(['application/vnd.apollia.package']);
  });

  it('flips the Electron fuses DESIGN.md "Security of the app itself" asks for', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    // A misspelled fuse would be silently ignored: check the keys against the installed
    // electron-builder's own schema (FuseOptionsV1 admits no other property). Integrity needs the asar.
    const scheme = JSON.parse(readFileSync(new URL('node_modules/app-builder-lib/scheme.json', root), 'utf8'));
    const validate = new Ajv({ strict: false }).compile(scheme.definitions.FuseOptionsV1);
    expect(validate(config.electronFuses), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...config.electronFuses, runAsNod: false })).toBe(false);
    expect(config.asar).toBe(true);
  });

  it('builds deb and AppImage on Linux', () => {
    expect(config.linux.target).toEqual(['deb', 'AppImage']);
  });

  it('points at icons that exist at the sizes the platforms need', () => {
    expect(config.linux.icon).toBe('resources/icons');
    expect(pngSize('resources/icons/512x512.png')).toEqual({ width: 512, height: 512 });
    expect(pngSize('resources/icons/256x256.png')).toEqual({ width: 256, height: 256 });
    for (const icon of [config.mac.icon, config.win.icon, config.fileAssociations[0].icon] as string[]) {
      expect(existsSync(new URL(icon, root)), icon).toBe(true);
      const { width, height } = pngSize(icon);
      expect(width).toBe(height);
      expect(width).toBeGreaterThanOrEqual(256);
    }
  });

  it('never publishes from a build', () => {
    expect(config.publish).toBeNull();
  });
});
