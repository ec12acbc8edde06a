/**
 * The folder name an installed version lives in (`packages/<name>/<folder>`), distinct for every
 * distinct version even on a case-insensitive file system (macOS, Windows by default): `1.0.0-RC`
 * and `1.0.0-rc` are two SemVer versions (pre-release identifiers compare in ASCII order), so they
 * must never share a folder, or installing one would overwrite the other's files.
 *
 * Encoding: lower-case letters, digits, `.`, `-` and `+` (SemVer's whole alphabet) stay as they
 * are, so an all-lower-case version keeps the folder it always had; an upper-case letter becomes
 * `_` and its lower-case form (`RC` → `_r_c`). `_` is not in SemVer's alphabet, so the encoding is
 * injective, readable, and its output is all lower case: two versions whose folders fold to the
 * same name are the same version.
 */
export function versionFolderName(version: string): string {
  if (!/^[0-9A-Za-z.+-]+$/.test(version) || version === '.' || version === '..') {
    throw new RangeError(
      `versionFolderName: \`${version}\` is not a SemVer version (the manifest check admits only those)`,
    );
  }
  return version.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
