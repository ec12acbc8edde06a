/**
 * Install links read strictly (DESIGN.md "Feeds, updates and install links"): what a link may name,
 * and every other thing a link could smuggle refused with `link.invalid` and a message naming it.
 */
import { describe, expect, it } from 'vitest';
import { CoreError } from '../errors';
import { looksLikeInstallLink, MAX_INSTALL_LINK_CHARS, parseInstallLink } from './install-link';

const FEED = 'https://example.com/apollia/feed.json';
const link = (query: string) => `apollia://install?${query}`;

function refusal(text: string): string {
  try {
    parseInstallLink(text);
  } catch (error) {
    if (error instanceof CoreError && error.code === 'link.invalid') return error.message;
    throw error;
  }
  throw new Error(`accepted: ${text}`);
}

describe('parseInstallLink', () => {
  it('reads the feed, the package, and the optional version and sha256', () => {
    expect(parseInstallLink(link(`feed=${encodeURIComponent(FEED)}&package=invoices`))).toEqual({
      feed: FEED,
      package: 'invoices',
      version: null,
      sha256: null,
    });
    const hash = 'AB'.repeat(32);
    expect(parseInstallLink(link(`feed=${FEED}&package=invoices&version=1.3.0&sha256=${hash}`))).toEqual({
      feed: FEED,
      package: 'invoices',
      version: '1.3.0',
      sha256: hash.toLowerCase(),
    });
    expect(
      parseInstallLink(`apollia://install/?package=a&feed=${encodeURIComponent('http://127.0.0.1:8080/f.json')}`).feed,
    ).toBe('http://127.0.0.1:8080/f.json');
  });

  it('refuses anything a link could carry besides what it names: a command, a grant, a key, an argument', () => {
    for (const extra of ['command=sh', 'grant=shell', 'key=RWQ', 'args=--yes', 'env=TOKEN%3Dx', 'arm=first-monday'])
      expect(refusal(link(`feed=${FEED}&package=invoices&${extra}`))).toContain(`\`${extra.split('=')[0]}\``);
  });

  it('refuses a parameter given twice, and a missing feed or package', () => {
    expect(refusal(link(`feed=${FEED}&package=a&package=b`))).toContain('`package` twice');
    expect(refusal(link('package=invoices'))).toContain('no `feed`');
    expect(refusal(link(`feed=${FEED}`))).toContain('no `package`');
  });

  it('refuses a feed over plain http elsewhere than loopback, or not an address', () => {
    expect(refusal(link('feed=http://example.com/feed.json&package=a'))).toContain('https only');
    expect(refusal(link('feed=file:///etc/passwd&package=a'))).toContain('https only');
    expect(refusal(link('feed=nothing&package=a'))).toContain('not an address');
  });

  it('refuses another scheme, another action, a path, a fragment, a user or port', () => {
    expect(refusal(`https://install?feed=${FEED}&package=a`)).toContain('scheme');
    expect(refusal(`apollia://uninstall?feed=${FEED}&package=a`)).toContain('`uninstall`');
    expect(refusal(`apollia://install/more?feed=${FEED}&package=a`)).toContain('path');
    expect(refusal(`apollia://install?feed=${FEED}&package=a#x`)).toContain('fragment');
    expect(refusal(`apollia://me@install?feed=${FEED}&package=a`)).toContain('user');
    expect(refusal(`apollia://install:99?feed=${FEED}&package=a`)).toContain('port');
  });

  it('refuses a name, version or hash that is not one, and a link too long', () => {
    expect(refusal(link(`feed=${FEED}&package=../etc`))).toContain('not a package name');
    expect(refusal(link(`feed=${FEED}&package=a&version=1.0;rm`))).toContain('not a version');
    expect(refusal(link(`feed=${FEED}&package=a&sha256=abc`))).toContain('64 hexadecimal');
    expect(refusal(link(`feed=${FEED}&package=a&version=${'1'.repeat(MAX_INSTALL_LINK_CHARS)}`))).toContain('longer');
    expect(refusal('not a link')).toContain('not a link');
  });

  it('tells a link from a path', () => {
    expect(looksLikeInstallLink('apollia://install?x')).toBe(true);
    expect(looksLikeInstallLink('./apollia-1.apo')).toBe(false);
  });
});
