/** How an update's signature stands to the installed package's pin: one list the verdict's schema and words share. */

/**
 * How an update's signature stands to the pin of the installed package (DESIGN.md "Trust after
 * install": key kept, changed, or signature dropped):
 *
 * - `kept`: signed by the pinned key (or unsigned again, as installed); nothing to say but that.
 * - `first_signed`: the installed version was unsigned and this one is signed (allowed, and said).
 * - `other_key`: signed by another key than the pinned one (a stop).
 * - `dropped`: the installed version was signed and this update is not (a stop).
 * - `unverifiable_pin`: the pin holds only a key id whose key is gone, so whether this is the same
 *   key cannot be told (a stop: a question for the person).
 */
export const SIGNATURE_UPDATE_KINDS = ['kept', 'first_signed', 'other_key', 'dropped', 'unverifiable_pin'] as const;
export type SignatureUpdateKind = (typeof SIGNATURE_UPDATE_KINDS)[number];
