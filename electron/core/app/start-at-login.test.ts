import { describe, expect, it } from 'vitest';
import { testApi } from '../../../test/helpers/test-api';

describe('start at login (opt-in)', () => {
  it('is off until turned on, through the host’s login item', async () => {
    let on = false;
    const { api } = testApi({ loginItem: { get: async () => on, set: async (next) => void (on = next) } });
    expect(await api.startAtLogin()).toEqual({ ok: true, value: { available: true, on: false } });
    expect(await api.setStartAtLogin({ on: true })).toEqual({ ok: true, value: { available: true, on: true } });
    expect(on).toBe(true);
    expect(await api.setStartAtLogin({ on: false })).toEqual({ ok: true, value: { available: true, on: false } });
  });

  it('is unavailable where the host has none (the command line, the harness), and says what to use', async () => {
    const { api } = testApi();
    expect(await api.startAtLogin()).toEqual({ ok: true, value: { available: false, on: false } });
    expect(await api.setStartAtLogin({ on: true })).toMatchObject({
      ok: false,
      error: { code: 'login.unavailable', message: expect.stringContaining('serve') },
    });
    expect(await api.setStartAtLogin({ on: 'yes' })).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
  });
});
