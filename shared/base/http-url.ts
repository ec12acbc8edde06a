/**
 * The one "is this an http(s) URL" check: plugin homepages, template URLs, a saved MCP server's
 * url (the Api and the Settings form). Parsed with `new URL()`, never compared with `startsWith`
 * (STYLE.md "Security defaults").
 */

/**
 * The WHATWG URL parser, present in every runtime `shared/` runs in (Node, Chromium); declared here
 * because `shared/` is compiled with neither the DOM nor the Node types.
 */
declare const URL: new (text: string) => { protocol: string; hostname: string };

/** Whether `text` parses as a URL whose scheme is `http:` or `https:`. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** What a server's address says about the way to it: plain `http://` off this computer, or a raw IP address. */
export interface AddressRisks {
  /** `http://` to another computer: what is sent can be read and changed on the way. */
  plainHttp: boolean;
  /** A numeric host (IPv4 or IPv6) of another computer: no name a person can recognise or check. */
  rawIp: boolean;
}

/**
 * The risks of a server's address (a new MCP server's url on update): plain http and a raw IP address, each only
 * when the host is not this computer (`localhost`, 127.0.0.0/8, `[::1]`). Not a URL: no risk said here (the
 * manifest check refuses it).
 */
export function addressRisks(text: string): AddressRisks {
  let url: { protocol: string; hostname: string };
  try {
    url = new URL(text);
  } catch {
    return { plainHttp: false, rawIp: false };
  }
  const host = url.hostname.toLowerCase();
  const ipv4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
  const ipv6 = host.startsWith('[');
  const local = host === 'localhost' || (ipv4 && host.startsWith('127.')) || host === '[::1]';
  return { plainHttp: url.protocol === 'http:' && !local, rawIp: (ipv4 || ipv6) && !local };
}
