/**
 * The one "is this an http(s) URL" check: plugin homepages, template URLs, a saved MCP server's
 * url (the Api and the Settings form). Parsed with `new URL()`, never compared with `startsWith`
 * (STYLE.md "Security defaults").
 */

/**
 * The WHATWG URL parser, present in every runtime `shared/` runs in (Node, Chromium); declared here
 * because `shared/` is compiled with neither the DOM nor the Node types.
 */
declare const URL: new (text: string) => { protocol: string };

/** Whether `text` parses as a URL whose scheme is `http:` or `https:`. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
