/**
 * Moving a refused source's original file to the system's Trash (a package that
 * may be malicious says "Don't install this", with Move to Trash). Only a source whose last check
 * refused it as possibly malicious (`shared/contract/refusal-actor.ts` decides which codes are) can be
 * trashed: the renderer names a source id, never a path, and cannot use this to throw away any
 * other file it was shown. The host does the moving (`ApiDeps.trash`: Electron's
 * `shell.trashItem`), so core never imports Electron.
 */
import type { ApiRequest, TrashReceipt } from '../../../shared/contract/api';
import { refusalAdviceFor } from '../../../shared/contract/refusal-actor';
import type { ApiContext } from './context';
import { CoreError } from '../errors/index';
import { inspectSource } from './sources';

/** Moves the original file of `request.sourceId` to the Trash, after checking it again now. */
export async function trashSource(ctx: ApiContext, request: ApiRequest<'trashSource'>): Promise<TrashReceipt> {
  const src = ctx.sources.get(request.sourceId);
  const name = src.handle.displayName;
  const trash = ctx.deps.trash;
  if (!trash)
    throw new CoreError('trash.unavailable', `${name} cannot be moved to the Trash from here: delete it yourself.`);
  // Checked again now: the file at the path is the one that is refused, not one swapped in since.
  const inspection = await inspectSource(src);
  const malicious = !inspection.ok && refusalAdviceFor(inspection.errors).actor === 'nobody';
  if (!malicious)
    throw new CoreError(
      'trash.not_refused',
      `${name} was not refused as possibly harmful: only such a file is moved to the Trash from here.`,
    );
  try {
    await trash(src.path);
  } catch (error) {
    throw new CoreError(
      'trash.failed',
      `${name} could not be moved to the Trash: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { displayName: name };
}
