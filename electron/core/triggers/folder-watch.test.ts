import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { tempDir } from '../../../test/helpers/test-api';
import { activity, eventually, putTriggers, runRequests, triggerRecord } from '../../../test/helpers/trigger-host';
import { TriggerHost } from './trigger-host';

const hosts: TriggerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

async function watching(recursive: boolean) {
  const dataDir = tempDir('apollia-watch-');
  const folder = join(tempDir('apollia-watched-'), 'inbox');
  mkdirSync(join(folder, 'sub'), { recursive: true });
  await putTriggers(dataDir, [
    triggerRecord({
      id: 'invoices/new-file',
      type: 'file_watch',
      folder,
      recursive,
      agentId: 'invoices/clerk',
      target: 'invoices/clerk',
    }),
  ]);
  const lines: string[] = [];
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port: 0,
    watchStore: false,
    onLine: (l) => lines.push(l),
    folderTiming: { debounceMs: 150, maxWaitMs: 2_000, checkMs: 100 },
  });
  await host.start();
  hosts.push(host);
  return { dataDir, folder, host, lines };
}

describe('watched folders (real files)', () => {
  it('queues nothing for what the first scan finds (links included), on every host start; only later changes fire', async () => {
    const dataDir = tempDir('apollia-watch-');
    const folder = join(tempDir('apollia-watched-'), 'inbox');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    writeFileSync(join(folder, 'old.pdf'), 'x');
    symlinkSync(join(folder, 'old.pdf'), join(folder, 'link.pdf'));
    symlinkSync(join(folder, 'sub'), join(folder, 'link-dir'));
    await putTriggers(dataDir, [
      triggerRecord({ id: 'invoices/new-file', type: 'file_watch', folder, recursive: true }),
    ]);
    for (let start = 0; start < 2; start++) {
      const host = new TriggerHost({
        dataDir,
        secretBox: createFileKeySecretBox(dataDir),
        port: 0,
        watchStore: false,
        folderTiming: { debounceMs: 50, maxWaitMs: 500, checkMs: 100 },
      });
      await host.start();
      hosts.push(host);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await host.settled();
      expect(runRequests(dataDir)).toEqual([]);
      await host.stop();
      hosts.splice(hosts.indexOf(host), 1);
    }
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      folderTiming: { debounceMs: 50, maxWaitMs: 500, checkMs: 100 },
    });
    await host.start();
    hosts.push(host);
    writeFileSync(join(folder, 'new.pdf'), 'y');
    const runs = await eventually(() => (runRequests(dataDir).length > 0 ? runRequests(dataDir) : undefined));
    await host.settled();
    expect(runs.flatMap((r) => r.input.changed_paths ?? [])).toEqual([join(folder, 'new.pdf')]);
  });

  it('turns a burst of new files into one run listing the changed paths; recursive as the manifest says', async () => {
    const { dataDir, folder, host, lines } = await watching(true);
    expect(lines).toContain(`watching invoices/new-file ${folder}`);
    writeFileSync(join(folder, 'a.pdf'), 'a');
    writeFileSync(join(folder, 'b.pdf'), 'b');
    writeFileSync(join(folder, 'sub', 'c.pdf'), 'c');
    const runs = await eventually(() => {
      const found = runRequests(dataDir);
      const paths = found.flatMap((r) => r.input.changed_paths ?? []);
      return paths.includes(join(folder, 'sub', 'c.pdf')) &&
        paths.includes(join(folder, 'a.pdf')) &&
        paths.includes(join(folder, 'b.pdf'))
        ? found
        : undefined;
    });
    await host.settled();
    expect(
      runs.every((r) => r.cause === 'file_watch' && r.target === 'invoices/clerk' && r.input.text === 'Do the thing'),
    ).toBe(true);
    expect(runs.length).toBeLessThanOrEqual(2);
    const events = await activity(dataDir);
    expect(events.filter((e) => e.kind === 'run_queued')).toHaveLength(runs.length);
    expect(events.find((e) => e.kind === 'trigger_fired')?.detail).toMatch(/^\d+ files? changed$/);
  });

  it('does not watch subfolders when recursive is false', async () => {
    const { dataDir, folder, host } = await watching(false);
    writeFileSync(join(folder, 'sub', 'deep.pdf'), 'x');
    writeFileSync(join(folder, 'top.pdf'), 'x');
    const runs = await eventually(() => (runRequests(dataDir).length > 0 ? runRequests(dataDir) : undefined));
    await host.settled();
    const paths = runs.flatMap((r) => r.input.changed_paths ?? []);
    expect(paths).toContain(join(folder, 'top.pdf'));
    expect(paths).not.toContain(join(folder, 'sub', 'deep.pdf'));
  });

  it('absorbs thousands of files at once: few runs, paths bounded, the rest counted', async () => {
    const { dataDir, folder, host } = await watching(false);
    for (let i = 0; i < 1500; i++) writeFileSync(join(folder, `f${i}.txt`), '');
    const total = await eventually(() => {
      const n = runRequests(dataDir).reduce(
        (sum, r) => sum + (r.input.changed_paths?.length ?? 0) + (r.input.changed_paths_more ?? 0),
        0,
      );
      return n >= 1500 ? n : undefined;
    }, 20_000);
    await host.settled();
    const runs = runRequests(dataDir);
    expect(total).toBeGreaterThanOrEqual(1500);
    expect(runs.every((r) => (r.input.changed_paths?.length ?? 0) <= 1000)).toBe(true);
    expect(runs.length).toBeLessThan(20);
  });

  it('reports a watched folder that is removed or replaced by a link, without crashing, and resumes when it is back', async () => {
    const { dataDir, folder, host, lines } = await watching(true);
    rmSync(folder, { recursive: true });
    await eventually(() => host.status().triggers['invoices/new-file']?.state === 'problem');
    expect(host.status().triggers['invoices/new-file']?.problem).toBe(`${folder} no longer exists`);
    const elsewhere = tempDir('apollia-elsewhere-');
    symlinkSync(elsewhere, folder);
    writeFileSync(join(elsewhere, 'lure.txt'), 'x');
    rmSync(folder);
    mkdirSync(folder);
    await eventually(() => host.status().triggers['invoices/new-file']?.state === 'watching');
    writeFileSync(join(folder, 'back.pdf'), 'x');
    await eventually(() => (runRequests(dataDir).length > 0 ? true : undefined));
    await host.settled();
    expect(runRequests(dataDir).flatMap((r) => r.input.changed_paths)).toEqual([join(folder, 'back.pdf')]);
    const problems = (await activity(dataDir)).filter((e) => e.kind === 'trigger_problem');
    expect(problems.map((e) => [e.trigger, e.outcome, e.detail])).toEqual([
      ['invoices/new-file', 'failed', `${folder} no longer exists`],
    ]);
    expect(lines).toContain(`problem invoices/new-file ${folder} no longer exists`);
  });

  it('refuses to follow a watched folder swapped for a link', async () => {
    const { dataDir, folder, host } = await watching(true);
    const elsewhere = tempDir('apollia-elsewhere-');
    const aside = `${folder}-aside`;
    renameSync(folder, aside);
    symlinkSync(elsewhere, folder);
    await eventually(() => host.status().triggers['invoices/new-file']?.state === 'problem');
    expect(host.status().triggers['invoices/new-file']?.problem).toBe(
      `${folder} has been replaced by a link; links are not followed`,
    );
    writeFileSync(join(elsewhere, 'outside.txt'), 'x');
    await host.settled();
    expect(runRequests(dataDir).flatMap((r) => r.input.changed_paths)).not.toContain(join(folder, 'outside.txt'));
    expect(
      (await activity(dataDir)).some((e) => e.kind === 'trigger_problem' && e.detail.includes('replaced by a link')),
    ).toBe(true);
  });

  it('never watches the data folder, a folder inside it or around it, even when a state file edited by hand arms one', async () => {
    const dataDir = tempDir('apollia-watch-');
    mkdirSync(join(dataDir, 'runs'), { recursive: true });
    const inside = join(dataDir, 'runs');
    await putTriggers(dataDir, [
      triggerRecord({ id: 'pkg/own-data', type: 'file_watch', folder: dataDir, recursive: true }),
      triggerRecord({ id: 'pkg/inside', type: 'file_watch', folder: inside, recursive: true }),
    ]);
    const host = new TriggerHost({
      dataDir,
      secretBox: createFileKeySecretBox(dataDir),
      port: 0,
      watchStore: false,
      onLine: () => undefined,
      folderTiming: { debounceMs: 50, maxWaitMs: 500, checkMs: 100 },
    });
    await host.start();
    hosts.push(host);
    expect(host.status().triggers['pkg/own-data']).toMatchObject({
      state: 'problem',
      problem: `${dataDir} is Apollia Desktop's own data folder: the app's own writes would set the trigger off. Pick another folder.`,
    });
    expect(host.status().triggers['pkg/inside']?.problem).toBe(
      `${inside} is inside Apollia Desktop's own data folder (${dataDir}): the app's own writes would set the trigger off. Pick a folder outside it.`,
    );
    writeFileSync(join(inside, 'lure.txt'), 'x');
    await host.settled();
    expect(runRequests(dataDir)).toEqual([]);
  });
});
