/**
 * The person refusing a publisher key change the consent form showed (Api `refuseKeyChange`,
 * DESIGN.md "Trust after install"): recorded as a decision, and nothing installed.
 */
import type { ApoDetails } from '../../../shared/manifests/inspection';
import type { ApiContext } from './context';
import { keyChangeOf, refuseKeyChange } from './publisher-trust';

/**
 * Records the refusal of the key change of the `.apo` shown as `sourceId`, if it still is one.
 * The change is read again from the store, so only a key change that holds now is recorded.
 */
export async function refuseShownKeyChange(ctx: ApiContext, request: { sourceId: string }): Promise<null> {
  const src = ctx.sources.get(request.sourceId);
  const summary = src.shownApo?.summary;
  const manifest = (src.shownApo?.details as ApoDetails | null | undefined)?.manifest;
  const change =
    summary && manifest ? keyChangeOf(await ctx.store.read(), manifest.package.name, summary.signature) : null;
  if (change?.kind === 'changed')
    await refuseKeyChange(ctx, change, manifest?.package.name ?? summary?.name ?? '', summary?.version ?? '');
  return null;
}
