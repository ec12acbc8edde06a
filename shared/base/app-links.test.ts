import { describe, expect, it } from 'vitest';
import pkg from '../../package.json';
import { APP_DOWNLOAD_PAGE, APP_DOWNLOAD_PAGE_SHOWN } from './app-links';

describe('the download page', () => {
  it("is an https page on the project's own homepage", () => {
    const page = new URL(APP_DOWNLOAD_PAGE);
    expect(page.protocol).toBe('https:');
    expect(page.host).toBe(new URL(pkg.homepage).host);
    expect(APP_DOWNLOAD_PAGE_SHOWN).toBe(`${page.host}${page.pathname}`);
  });
});
