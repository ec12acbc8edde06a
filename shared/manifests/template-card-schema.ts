/**
 * A built-in template as the template list shows it, once with TypeBox (`template-manifest.ts` re-exports the
 * type); loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed } from '../base/schema-kit';

const str = Type.String();

/**
 * `listBuiltinTemplates`: a built-in template as the template list shows it (the spec's "The packages
 * this server ships" table). Re-exported by `shared/manifests/template-manifest.ts`.
 */
export const BuiltinTemplateCardSchema = closed({
  name: str,
  title: str,
  whatItDoes: str,
  startedBy: str,
  needs: str,
});
export type BuiltinTemplateCard = Static<typeof BuiltinTemplateCardSchema>;
