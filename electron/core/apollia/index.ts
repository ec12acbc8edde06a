/**
 * `.apo` packages: reading the archive once, checking `apollia.toml` strictly, and summarising what
 * the package would be allowed to do (spec: apollia-package-manifest.md; DESIGN.md "Validation
 * contract"). Nothing from the package is ever run.
 */
import type { ApoInspection, Problem } from '../../../shared/manifests/inspection';
import { SDK_VERSION } from '../../../shared/manifests/sdk';
import { signatureSummaryOf } from '../../../shared/trust/trust';
import { readApoArchive } from '../archive/index';
import {
  claimedKeyIdOf,
  invalidSignatureSummary,
  readDetachedSignature,
  startPackageSignatureCheck,
  type TrustedKey,
} from '../trust/index';
import { checkApolliaManifest } from './check-manifest';
import { summariseManifest } from './summary';

export { checkApolliaManifest, type ArchiveView, type ManifestCheck, type ManifestStage } from './check-manifest';
export { parseManifestText, checkManifestSchema, pointerToPath } from './manifest-parse';
export { checkManifestRules } from './manifest-rules';
export { scanPythonModule, type DecoratedFunction } from './python-scan';
export { cargoRequirementToRange, satisfiesRequirement, isSemver } from './sdk-requirement';
export { summariseManifest, sensitiveFamilies, triggerNeeds } from './summary';

/**
 * The warning for macOS AppleDouble entries the archive reader left out (`._name`): metadata a
 * Mac's `tar` adds, never package files; the author is told they were not installed.
 */
function archiveWarnings(skipped: string[]): Problem[] {
  if (skipped.length === 0) return [];
  const shown = skipped
    .slice(0, 5)
    .map((name) => `\`${name}\``)
    .join(', ');
  const more = skipped.length > 5 ? ` and ${skipped.length - 5} more` : '';
  return [
    {
      code: 'archive.apple_double_skipped',
      message: `${skipped.length} macOS metadata ${skipped.length === 1 ? 'entry' : 'entries'} (AppleDouble \`._*\`) left out, not package files and not installed: ${shown}${more}`,
    },
  ];
}

/**
 * Inspects an `.apo` file: its detached signature (`x.apo.minisig`) and archive in ONE read (the
 * signature is checked over the very bytes that are hashed and inspected), then
 * the manifest stages in the contract's order. A refused signature (`signature.*`, a refusal,
 * never a warning) is the first error; otherwise the first error is the first problem found.
 * `summary` and `details` are present whenever the manifest parsed, even when it was refused
 * later, so the UI can still say what it is. `trustedKeys` are the user's (public) keys: a package
 * signed by one of them is `verified`, by another `unknown_key`; `pinnedKeys` are the whole keys
 * installed packages are pinned to, which a signature is checked against too (trust README).
 */
export async function inspectApo(
  path: string,
  options: { trustedKeys?: readonly TrustedKey[]; pinnedKeys?: readonly string[] } = {},
): Promise<ApoInspection> {
  const read = await readDetachedSignature(path);
  const started = startPackageSignatureCheck(read, options.trustedKeys ?? [], options.pinnedKeys ?? []);
  const signatureErrors = started.ok ? [] : [started.error];
  const archive = await readApoArchive(path, started.ok ? { onBytes: (chunk) => started.check.onBytes(chunk) } : {});
  if (!archive.ok)
    return {
      kind: 'apo',
      ok: false,
      errors: [...signatureErrors, archive.error],
      warnings: [],
      summary: null,
      details: null,
    };
  // The signature's outcome counts only over a read that went to the end (archive README "One read").
  const signature = started.ok ? started.check.finish() : started;
  if (!signature.ok && signatureErrors.length === 0) signatureErrors.push(signature.error);
  const check = checkApolliaManifest(archive.manifestText, archive);
  const manifest = check.manifest;
  return {
    kind: 'apo',
    ok: check.ok && signature.ok,
    errors: [...signatureErrors, ...check.errors],
    warnings: [...archiveWarnings(archive.skipped), ...check.warnings],
    // A refused signature is still a verdict: `invalid`, with why (never "unsigned", never no state).
    summary: manifest
      ? summariseManifest(
          manifest,
          archive.sha256,
          signature.ok
            ? signatureSummaryOf(signature.value)
            : invalidSignatureSummary(signatureErrors[0] ?? signature.error, claimedKeyIdOf(read)),
        )
      : null,
    details: manifest
      ? {
          manifest,
          files: archive.files,
          totalBytes: archive.totalBytes,
          sdkSupported: check.sdkSupported,
          sdkVersion: SDK_VERSION,
        }
      : null,
  };
}
