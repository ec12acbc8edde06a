/**
 * The dashboard says where the triggers run: in this app's own process, or in another one
 * (`apollia-desktop serve`, its systemd service) with its pid. The other one here is the built CLI's
 * `serve`, a real second process holding the data folder's host lock.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { skipWithoutBuild } from '../../../test/helpers/built-output';
import { testApi } from '../../../test/helpers/test-api';
import { TriggerHost } from '../triggers';

const CLI = new URL('../../../out/cli/cli.cjs', import.meta.url).pathname;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('where the triggers run', () => {
  it('in this process: here', async () => {
    const { api, dataDir, deps } = testApi();
    const host = new TriggerHost({ dataDir, secretBox: deps.secretBox, port: 0, watchStore: false });
    await host.start();
    await host.settled();
    try {
      expect(await api.triggerStatus()).toMatchObject({ ok: true, value: { running: true, host: { here: true } } });
    } finally {
      await host.stop();
    }
    expect(await api.triggerStatus()).toMatchObject({ ok: true, value: { running: false, host: null } });
  });

  it.skipIf(skipWithoutBuild(CLI))(
    'in `serve`, another process: not here, with its pid (run `npm run build` first)',
    async () => {
      const { api, dataDir } = testApi();
      const serve = spawn(process.execPath, [CLI, '--data-dir', dataDir, 'serve', '--port', '0'], { stdio: 'ignore' });
      try {
        const status = await until(
          () => api.triggerStatus(),
          (s) => s.ok && s.value.running,
        );
        expect(status).toMatchObject({ ok: true, value: { running: true, host: { here: false, pid: serve.pid } } });
      } finally {
        serve.kill('SIGTERM');
        await new Promise((resolve) => serve.once('exit', resolve));
      }
    },
    30_000,
  );
});
