import fc from 'fast-check';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { versionFolderName } from './version-folder';

describe('versionFolderName (version folders distinct under case folding)', () => {
  test('an all-lower-case version keeps its plain folder name', () => {
    expect(versionFolderName('1.2.0')).toBe('1.2.0');
    expect(versionFolderName('1.0.0-rc.1+build.7')).toBe('1.0.0-rc.1+build.7');
  });

  test('1.0.0-RC and 1.0.0-rc get folders that differ after case folding', () => {
    expect(versionFolderName('1.0.0-RC')).toBe('1.0.0-_r_c');
    expect(versionFolderName('1.0.0-rc')).toBe('1.0.0-rc');
    expect(versionFolderName('1.0.0-Rc').toLowerCase()).not.toBe(versionFolderName('1.0.0-rC').toLowerCase());
  });

  test('anything outside SemVer is a bug, never a folder name', () => {
    for (const bad of ['', '.', '..', '1.0.0/../x', '1.0.0\\x', '1.0.0_x', '1.0.0 x', '1.0.0-é']) {
      expect(() => versionFolderName(bad)).toThrow(RangeError);
    }
  });

  test('distinct versions never share a folder, even on a case-insensitive file system', () => {
    const identifier = fc.stringMatching(/^[0-9A-Za-z-]{1,6}$/);
    const version = fc
      .tuple(
        fc.nat(20),
        fc.nat(20),
        fc.nat(20),
        fc.array(identifier, { maxLength: 3 }),
        fc.array(identifier, { maxLength: 2 }),
      )
      .map(
        ([a, b, c, pre, build]) =>
          `${a}.${b}.${c}${pre.length ? `-${pre.join('.')}` : ''}${build.length ? `+${build.join('.')}` : ''}`,
      );
    fc.assert(
      fc.property(version, version, (x, y) => {
        const fx = versionFolderName(x);
        const fy = versionFolderName(y);
        expect(fx).toBe(fx.toLowerCase());
        if (x !== y) expect(fx.toLowerCase()).not.toBe(fy.toLowerCase());
      }),
    );
  });

  test('versions that differ only in case are different SemVer versions (why this matters)', () => {
    expect(semver.compare('1.0.0-RC', '1.0.0-rc')).not.toBe(0);
  });
});
