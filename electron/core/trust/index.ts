/**
 * Trust (DESIGN.md "Trust after install"): minisign signatures over `.apo` packages, the keys the
 * user trusts, the key pinned per package, and the integrity of installed files. The Api, store,
 * CLI (`trust`, `verify`) and inspect import from here.
 */
export {
  canonicalKeyId,
  createSignedMessageCollector,
  formatKeyId,
  isKeyId,
  KEY_ERROR,
  MAX_LEGACY_SIGNED_BYTES,
  MAX_PUBLIC_KEY_TEXT_BYTES,
  MAX_SIGNATURE_FILE_BYTES,
  parsePublicKey,
  parseSignature,
  SIGNATURE_ERROR,
  signedMessageOf,
  verifyBytes,
  verifySignedMessage,
  type MinisignPublicKey,
  type MinisignSignature,
  type Parsed,
  type SignatureAlgorithm,
  type SignatureVerification,
  type SignedMessage,
  type SignedMessageCollector,
} from './minisign';
export {
  checkKeyPin,
  comparePins,
  checkPackageSignature,
  KEY_PIN_ERROR,
  keyPinOf,
  readDetachedSignature,
  signaturePathFor,
  startPackageSignatureCheck,
  type DetachedSignatureRead,
  type KeyPin,
  type PackageSignatureCheck,
  type SignatureOutcome,
  type SignatureState,
} from './package-signature';
export {
  addTrustedKey,
  findTrustedKey,
  keyNameProblem,
  MAX_KEY_NAME_CHARS,
  MAX_TRUSTED_KEYS,
  parseTrustedKeys,
  removeTrustedKey,
  TRUSTED_KEYS_ERROR,
  type TrustedKey,
  type TrustedKeysChange,
} from './trusted-keys';
export { checkIntegrity, computeFileDigests, INTEGRITY_ERROR, type FileDigests, type IntegrityLimits, type IntegrityReport } from './integrity';
