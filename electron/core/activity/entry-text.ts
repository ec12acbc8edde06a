/**
 * What every field of an activity entry goes through before it is written, whoever the caller is
 * (DESIGN.md "Triggers at run time": every field is cleaned): anything secret-looking redacted,
 * control and direction characters escaped so a line can never hold a second line or move the
 * cursor, and a bound on the length.
 */
import { looksLikeKey, secretVariableName } from '../secrets/mcp-credentials';

/** What a redacted secret reads as. */
export const HIDDEN = '[hidden]';

/**
 * `text` with what looks secret replaced by `[hidden]`: a webhook secret (`whsec_…`), the
 * password of a URL with userinfo (any scheme), the value of `NAME=…` when the name says it is a
 * credential, an `Authorization:` (or `X-…-Key:`) header's value, what follows `Bearer ` / `Basic `, and any word that
 * looks like a key
 * (`mcp-credentials.ts` `looksLikeKey`). Pure.
 */
export function redactSecrets(text: string): string {
  return (
    text
      // A secret is the prefix with its value: the bare word `whsec_` (a message naming the prefix) stays readable.
      .replace(/whsec_[A-Za-z0-9+/=_-]{6,}/g, `whsec_${HIDDEN}`)
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]*):([^\s/?#@]*)@/gi, `$1$2:${HIDDEN}@`)
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@:]+)@/gi, (match, scheme: string, user: string) =>
        looksLikeKey(user) ? `${scheme}${HIDDEN}@` : match,
      )
      .replace(/\b(Bearer|Basic)\s+[^\s"',;]+/g, `$1 ${HIDDEN}`)
      .replace(
        /\b(Authorization|Proxy-Authorization|Cookie|X-[A-Za-z-]*(?:Key|Token|Secret))(\s*:\s*)(?!\[hidden\])\S+/gi,
        `$1$2${HIDDEN}`,
      )
      .replace(/([A-Za-z][A-Za-z0-9_-]*)(=)([^\s"',;&]+)/g, (match, name: string, sep: string, value: string) =>
        secretVariableName(name) && value !== HIDDEN ? `${name}${sep}${HIDDEN}` : match,
      )
      .replace(/[A-Za-z0-9_\-.+/=~]{16,}/g, (word) => (looksLikeKey(word) ? HIDDEN : word))
  );
}

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/**
 * Control characters (C0, DEL, C1), direction overrides and line or paragraph separators written
 * as visible escapes (`\n`, `\u001b`, `\u202e`); a backslash doubled so an escape cannot be forged. Pure.
 */
export function escapeControls(text: string): string {
  return text.replace(
    /[\\\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One field cleaned: secrets redacted, controls escaped, at most `max` characters (cut with `…`). Pure. */
export function cleanField(text: string, max: number): string {
  const clean = escapeControls(redactSecrets(text.length > max * 4 ? text.slice(0, max * 4) : text)).trim();
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max - 1);
  // Never end on half an escape.
  const slash = cut.lastIndexOf('\\');
  if (slash >= 0 && cut.length - slash < 6) cut = cut.slice(0, slash);
  return `${cut}…`;
}
