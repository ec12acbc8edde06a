/**
 * Template folders (spec: agentrun-template-packages.md). INTERFACE STUB: the template work replaces it.
 */
import type { Inspection } from '../../../shared/inspection';

/** Reads and checks a template folder whole, without following links. */
export async function inspectTemplateFolder(dir: string): Promise<Inspection> {
  void dir;
  return { kind: 'template', ok: false, errors: [{ code: 'template.unimplemented', message: 'template checking is not implemented yet' }], warnings: [], summary: null, details: null };
}
