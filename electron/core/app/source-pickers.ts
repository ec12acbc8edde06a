/**
 * What the person picks to open (Api `openDialog`, `openBuiltinTemplate`, `pickWatchFolder`): a
 * file or folder from main's dialog, a shipped template, a folder to watch. The renderer never
 * sends a path: each pick is registered and answered by an unguessable id (`sources.ts`).
 */
import { CoreError } from '../errors/index';
import { builtinTemplateDir, listBuiltinTemplates } from '../template';
import { resolveWatchFolder } from '../triggers/watchable-folder';
import type { ApiContext } from './context';
import type { SourceRegistry } from './sources';

/** A registered source's handle, or its refusal thrown. */
async function registered(ctx: ApiContext, path: string, origin: Parameters<SourceRegistry['register']>[1]) {
  const answer = await ctx.sources.register(path, origin);
  if (!answer.ok) throw new CoreError(answer.error.code as CoreError['code'], answer.error.message);
  return answer.value;
}

/**
 * A file or folder picked in main's dialog, registered; null when the dialog was cancelled.
 * Only main's dialog names the path, so the renderer cannot open what the person did not pick.
 */
export async function openFromDialog(ctx: ApiContext, request: { kind: 'file' | 'folder' }) {
  const { dialogs } = ctx.deps;
  const path = request.kind === 'file' ? await dialogs.openFile() : await dialogs.openFolder();
  return path === null ? null : registered(ctx, path, 'dialog');
}

/**
 * A shipped template opened by its name.
 * Only a name of the shipped list, never a path: `builtinTemplateDir` refuses any other.
 */
export async function openBuiltinTemplate(ctx: ApiContext, request: { name: string }) {
  const { resourcesDir } = ctx.deps;
  const known = (await listBuiltinTemplates(resourcesDir)).some((t) => t.name === request.name);
  if (!known) throw new CoreError('template.unknown', `No built-in template is called \`${request.name}\`.`);
  return registered(ctx, builtinTemplateDir(resourcesDir, request.name), 'builtin');
}

/**
 * A folder to watch, picked in main's dialog and checked by its real path; null when cancelled.
 * The data folder, anything inside or around it, and the root are refused here (`watchable-folder.ts`).
 */
export async function pickWatchFolder(ctx: ApiContext) {
  const path = await ctx.deps.dialogs.openFolder();
  if (path === null) return null;
  const real = await resolveWatchFolder(path, ctx.deps.dataDir);
  return { folderId: ctx.sources.addFolder(real), displayPath: real };
}
