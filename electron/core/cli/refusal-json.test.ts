/**
 * The refusals that were only sentences on standard error follow the one contract too (DESIGN.md "The command line"):
 * with `--json`, one document `{ ok: false, errors: [{ code, message, path }] }` on standard output, exit 1, and
 * nothing changed; without it, the same sentence.
 */
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir, treeHash } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
/** A minisign public key file (any valid key). */
const KEY =
  'untrusted comment: minisign public key 4126E20D21FA2A41\nRWRBgZL74n41JgKbQmMI+1Gbf3SZpb2EfPkEa8AYcHig+gTecGl5Wa95\n';

async function installed(): Promise<string> {
  const dir = tempDir('apollia-refusal-json-');
  const apo = join(dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const dataDir = join(dir, 'data');
  expect((await runCliCaptured(['--data-dir', dataDir, 'install', apo, '--yes'])).code).toBe(0);
  return dataDir;
}

/** Runs `argv` as text and with --json: the sentence, then the document's one error. */
async function both(argv: string[], io: Parameters<typeof runCliCaptured>[1] = {}, notes = '') {
  const text = await runCliCaptured(argv, io);
  expect([text.code, text.stdout]).toEqual([1, expect.not.stringContaining('{')]);
  expect(text.stderr).toMatch(/^apollia-desktop: \S/);
  const json = await runCliCaptured([...argv, '--json'], io);
  expect([json.code, json.stderr]).toEqual([1, notes]);
  const doc = JSON.parse(json.stdout);
  expect([doc.ok, doc.errors.length]).toEqual([false, 1]);
  expect(Object.keys(doc.errors[0]).sort()).toEqual(['code', 'message', 'path']);
  return { text: text.stderr, error: doc.errors[0] as { code: string; message: string; path: string | null } };
}

describe('refusals once said only in text', () => {
  it('grant of an entry the agent is not offered', async () => {
    const dataDir = await installed();
    const before = treeHash(dataDir);
    const { text, error } = await both(['--data-dir', dataDir, 'grant', 'watcher/tidy', 'shell']);
    expect(text).toContain('is not offered `shell`; nothing was changed');
    expect(error).toMatchObject({ code: 'grant.not_offered', message: expect.stringContaining('`shell`') });
    expect(treeHash(dataDir)).toBe(before);
  });

  it('activity --agent of an agent nobody knows', async () => {
    const dataDir = await installed();
    const { text, error } = await both(['--data-dir', dataDir, 'activity', '--agent', 'nobody/none']);
    expect(text).toContain('no agent `nobody/none` is known');
    expect(error).toMatchObject({ code: 'activity.unknown_agent', path: '--agent' });
  });

  it('trust remove without a terminal and without --yes', async () => {
    const dataDir = await installed();
    const key = join(tempDir('apollia-refusal-json-key-'), 'publisher.pub');
    writeFileSync(key, KEY);
    expect((await runCliCaptured(['--data-dir', dataDir, 'trust', 'add', key, '--name', 'Fixture Works'])).code).toBe(
      0,
    );
    const listed = JSON.parse((await runCliCaptured(['--data-dir', dataDir, 'trust', 'list', '--json'])).stdout);
    const keyId = (listed.keys ?? listed)[0].keyId as string;
    const before = treeHash(dataDir);
    const noTerminal = { ask: async () => null };
    const argv = ['--data-dir', dataDir, 'trust', 'remove', keyId];
    // What removing it means is said first; with --json, beside the document, on standard error.
    const words = (await runCliCaptured(argv, noTerminal)).stdout;
    expect(words).toContain('Fixture Works');
    const { text, error } = await both(argv, noTerminal, words);
    expect(text).toContain('there is no terminal to ask in: nothing was removed');
    expect(error.code).toBe('trust.not_confirmed');
    expect(treeHash(dataDir)).toBe(before);
  });

  it('pack to an output that cannot be written', async () => {
    const dir = tempDir('apollia-refusal-json-out-');
    writeFileSync(join(dir, 'a-file'), 'not a folder');
    const out = join(dir, 'a-file', 'invoices.apo');
    const { text, error } = await both(['pack', INVOICES_DIR, '-o', out]);
    expect(text).toContain(`${out} could not be written: `);
    expect(error).toMatchObject({ code: 'pack.write_failed', path: '--output' });
    expect(existsSync(out)).toBe(false);
  });

  it('verify and policy keep their reports, with the contract’s ok and errors', async () => {
    const dataDir = await installed();
    const clean = JSON.parse((await runCliCaptured(['--data-dir', dataDir, 'verify', '--json'])).stdout);
    expect([clean.ok, clean.errors, clean.packages.length]).toEqual([true, [], 1]);
    appendFileSync(join(dataDir, 'packages', 'watcher', '0.1.0', 'tools', 'tidy.py'), '\n# changed here\n');
    const found = await runCliCaptured(['--data-dir', dataDir, 'verify', '--json']);
    expect(found.code).toBe(1);
    const changed = JSON.parse(found.stdout);
    expect([changed.ok, changed.packages[0].integrity]).toEqual([false, 'changed']);
    expect(changed.errors).toEqual([
      {
        code: 'package.changed',
        message: expect.stringContaining('watcher 0.1.0 changed on this computer since you installed it'),
        path: 'watcher',
      },
    ]);
    const policy = join(tempDir('apollia-refusal-json-policy-'), 'policy.json');
    writeFileSync(policy, '{ not json');
    const unreadable = await runCliCaptured(['policy', '--json'], {
      env: { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy },
    });
    expect(unreadable.code).toBe(1);
    const view = JSON.parse(unreadable.stdout);
    expect([view.ok, view.state, view.errors[0].code, view.errors[0].path]).toEqual([
      false,
      'unreadable',
      'policy.unreadable',
      null,
    ]);
    expect(view.errors[0].message).toContain(policy);
  });
});
