import { describe, expect, it, vi } from 'vitest';
import type { AppLocation } from './app-location';
import { FORBIDDEN_SENDER, handleInvoke } from './sender-check';

const app: AppLocation = { kind: 'app', indexUrl: 'app://renderer/index.html' };
const ok = { ok: true as const, value: 42 };

describe('handleInvoke', () => {
  it('answers the app page with the core result', async () => {
    const call = vi.fn(async () => ok);
    await expect(handleInvoke({ senderFrame: { url: app.indexUrl, parent: null } }, app, call)).resolves.toEqual(ok);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['a foreign origin', { url: 'https://evil.example/', parent: null }],
    ['a file:// page', { url: 'file:///app/out/renderer/index.html', parent: null }],
    ['another app:// host', { url: 'app://renderer.evil/index.html', parent: null }],
    ['about:blank', { url: 'about:blank', parent: null }],
    ['an iframe of the app', { url: 'app://renderer/index.html', parent: {} }],
    ['a null frame', null],
  ])('refuses %s without calling core', async (_name, senderFrame) => {
    const call = vi.fn(async () => ok);
    const result = await handleInvoke({ senderFrame }, app, call);
    expect(result).toEqual(FORBIDDEN_SENDER);
    expect(result).toMatchObject({ ok: false, error: { code: 'ipc.forbidden_sender' } });
    expect(call).not.toHaveBeenCalled();
  });

  it('refuses when reading the frame throws (a destroyed frame)', async () => {
    const event = {
      get senderFrame(): never {
        throw new Error('Render frame was disposed');
      },
    };
    const call = vi.fn(async () => ok);
    await expect(handleInvoke(event, app, call)).resolves.toEqual(FORBIDDEN_SENDER);
    expect(call).not.toHaveBeenCalled();
  });

  it('turns a throw inside core into an error value', async () => {
    const result = await handleInvoke({ senderFrame: { url: app.indexUrl, parent: null } }, app, () => {
      throw new Error('boom');
    });
    expect(result).toEqual({
      ok: false,
      error: { code: 'ipc.internal', message: 'Something went wrong inside the app: boom' },
    });
  });
});
