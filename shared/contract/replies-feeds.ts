/**
 * The Api's replies about publishers' feeds (DESIGN.md "Feeds, updates and install links"): the
 * feeds followed (Settings → Feeds), each installed package's standing against its feed (the Updates
 * screen), an update or a roll back opened as a source, and where a source opened from a feed came
 * from (an install link's form shows it). Once each with TypeBox; loaded only by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, oneOf, orNull } from '../base/schema-kit';
import { SourceHandleSchema } from './replies-app';

const str = Type.String();
const nstr = orNull('string');

/** The update modes: notify (the default), auto (only what asks nothing new), hold. */
export const UpdateModeSchema = oneOf(['notify', 'auto', 'hold']);
export type UpdateModeView = Static<typeof UpdateModeSchema>;

/** A key a feed is checked against, as Settings → Feeds shows it: its id, fingerprint and the name it is trusted as. */
export const FeedKeyViewSchema = closed({
  keyId: str,
  fingerprint: str,
  /** The name the person trusts it as, or null when only an installed package's pin holds it. */
  trustedAs: nstr,
});
export type FeedKeyView = Static<typeof FeedKeyViewSchema>;

/** One feed followed. */
export const FeedViewSchema = closed({
  url: str,
  publisher: nstr,
  addedAt: str,
  lastCheckedAt: nstr,
  /** The last check's refusal in words, or null when it read. */
  lastProblem: nstr,
  /** The installed packages that update from it, sorted. */
  packages: Type.Array(str),
  /** The keys its feed is checked against: the one it was added with, the ones its packages are pinned to. */
  keys: Type.Array(FeedKeyViewSchema),
});
export type FeedView = Static<typeof FeedViewSchema>;

/** Settings → Feeds: the feeds followed, and what the organization's policy says of adding one. */
export const FeedsViewSchema = closed({
  feeds: Type.Array(FeedViewSchema),
  /** The address prefixes the organization allows (empty: any feed). */
  allowedPrefixes: Type.Array(str),
  /** Why a feed cannot be added at all (the policy fails closed), or null. */
  locked: nstr,
});
export type FeedsView = Static<typeof FeedsViewSchema>;

/** One installed package against its feed, as the Updates screen shows it. */
export const UpdateRowSchema = closed({
  name: str,
  installed: str,
  latest: nstr,
  feed: str,
  lastChecked: nstr,
  mode: UpdateModeSchema,
  /** The installed version withdrawn by its publisher, with the reason; else null. */
  yanked: Type.Union([closed({ reason: str }), Type.Null()]),
  updateAvailable: Type.Boolean(),
  /** Why the feed could not be checked, when it could not. */
  problem: Type.Union([closed({ code: str, message: str }), Type.Null()]),
  /** The earlier version kept for roll back, or null. */
  rollbackTo: nstr,
});
export type UpdateRow = Static<typeof UpdateRowSchema>;

/** The Updates screen: a row per package installed from a feed, checked now, and who sets the modes. */
export const UpdatesViewSchema = closed({
  rows: Type.Array(UpdateRowSchema),
  checkedAt: str,
  /** Why the person may not choose the modes (the organization sets them), or null. */
  modeLocked: nstr,
});
export type UpdatesView = Static<typeof UpdatesViewSchema>;

/** An update or a roll back opened as a source: nothing installed until the consent form's Install. */
export const UpdateOpenedSchema = closed({ handle: SourceHandleSchema, from: str, to: str });
export type UpdateOpened = Static<typeof UpdateOpenedSchema>;

/** `setUpdateMode`'s answer: the mode now in force. */
export const ModeSetSchema = closed({ name: str, mode: UpdateModeSchema });
export type ModeSet = Static<typeof ModeSetSchema>;
