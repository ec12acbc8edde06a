import { describe, expect, it } from 'vitest';
import { APP_DOWNLOAD_PAGE } from '../../../shared/base/app-links';
import { testApi } from '../../../test/helpers/test-api';

describe('the download page (a refusal a newer app fixes)', () => {
  it('opens only the app’s own fixed address through the host, whatever the request carries', async () => {
    const opened: string[] = [];
    const { api } = testApi({ openExternal: async (url) => void opened.push(url) });
    expect(await api.openDownloadPage()).toEqual({ ok: true, value: { url: APP_DOWNLOAD_PAGE } });
    expect(opened).toEqual([APP_DOWNLOAD_PAGE]);
    // No address can be handed in: the request is closed.
    const call = api.openDownloadPage as unknown as (request: unknown) => Promise<unknown>;
    expect(await call({ url: 'https://evil.example/' })).toMatchObject({
      ok: false,
      error: { code: 'request.invalid' },
    });
    expect(opened).toEqual([APP_DOWNLOAD_PAGE]);
  });

  it('says where the page is when the host cannot open a browser, or the browser fails', async () => {
    expect(await testApi().api.openDownloadPage()).toMatchObject({
      ok: false,
      error: { code: 'link.unavailable', message: expect.stringContaining(APP_DOWNLOAD_PAGE) },
    });
    const failing = testApi({ openExternal: async () => Promise.reject(new Error('no browser')) });
    expect(await failing.api.openDownloadPage()).toMatchObject({
      ok: false,
      error: { code: 'link.failed', message: expect.stringContaining(APP_DOWNLOAD_PAGE) },
    });
  });
});
