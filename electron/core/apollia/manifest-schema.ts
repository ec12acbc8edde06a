/**
 * The strict JSON Schema of `apollia.toml` as `scripts/compile-schemas.ts` compiles it, with the
 * ajv options it is compiled with. The schema is defined once with its types in
 * `shared/manifests/apollia-manifest-schema.ts` (TypeBox; spec: apollia-package-manifest.md, "Tables" and
 * "Strict schema"): every table refuses keys it does not know, and the spec's "Validation" rules,
 * not the schema, check identifiers, semver and the sdk requirement. Loaded only by the schema
 * compiler and tests: the reader runs the compiled validator (`generated/manifest-validator.js`).
 */
import { ApolliaManifestSchema } from '../../../shared/manifests/apollia-manifest-schema';

/**
 * The ajv options the manifest schema is compiled with (at build time, `scripts/compile-schemas.ts`):
 * every error (the report lists them all, in document order), `discriminator` for the trigger
 * sources, strict mode so the schema itself cannot carry a typo.
 */
export const MANIFEST_AJV_OPTIONS = {
  allErrors: true,
  discriminator: true,
  strict: true,
  strictRequired: false,
} as const;

/** The whole manifest. */
export const MANIFEST_SCHEMA = ApolliaManifestSchema;
