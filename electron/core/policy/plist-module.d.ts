/**
 * The calls this app makes of `plist` (3.x ships no types): parsing an XML property list into plain values.
 * Why here: `plist-policy.ts` reads managed preferences with it.
 */
declare module 'plist' {
  /** The plist's top-level value: a dictionary, array, string, number, boolean, Date or Buffer. */
  export function parse(xml: string): unknown;
  /** A value as an XML property list (the tests write payloads with it). */
  export function build(value: unknown): string;
  const plist: { parse: typeof parse; build: typeof build };
  export default plist;
}
