/**
 * `runs` and `runs discard`: the Runs view from the command line. Lists what waits (never a payload's
 * body), says a full queue, discards one run or all of a trigger's only with `--yes` (without it,
 * says what it would discard and removes nothing), and each discard is in the activity record.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { PENDING_DIR, type RunRequest, runFileName, writeRunRequest } from '../triggers/run-requests';

const WATCHER = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const BODY = 'body-text-never-printed';

async function installed() {
  const dir = tempDir('apollia-cli-');
  const dataDir = join(dir, 'data');
  const apo = join(dir, 'watcher.apo');
  writeFileSync(apo, packFolder(WATCHER));
  const cli = (argv: string[]) => runCliCaptured(['--data-dir', dataDir, ...argv], { cwd: dir });
  const done = await cli(['install', apo, '--yes']);
  expect([done.code, done.stderr]).toEqual([0, '']);
  return { dataDir, cli };
}

const hook = (n: number): RunRequest => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  trigger: 'watcher/on-call',
  target: 'watcher/tidy',
  input: { text: null },
  payload: { untrusted: true, webhook_id: `msg_${n}`, type: 'scan.ready', body: { note: BODY } },
  fired_at: new Date(Date.UTC(2026, 11, 1, 8, n)).toISOString(),
  cause: 'webhook',
});

describe('runs', () => {
  it('lists what waits, oldest first, with the payload type and never the body; JSON too', async () => {
    const { dataDir, cli } = await installed();
    expect((await cli(['runs'])).stdout).toBe('No run is waiting.\n');
    await writeRunRequest(dataDir, hook(2));
    await writeRunRequest(dataDir, hook(1));
    const text = await cli(['runs']);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      [
        '2 runs are waiting:',
        '  watcher/on-call: 2 runs waiting (at most 100).',
        '',
        `${hook(1).id}  ${hook(1).fired_at}  watcher/on-call → Tidy  (a webhook delivery, payload type scan.ready)`,
        `${hook(2).id}  ${hook(2).fired_at}  watcher/on-call → Tidy  (a webhook delivery, payload type scan.ready)`,
        '',
      ].join('\n'),
    );
    const json = await cli(['runs', '--json']);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.total).toBe(2);
    expect(parsed.runs[0]).toMatchObject({ id: hook(1).id, payloadType: 'scan.ready', cause: 'webhook' });
    expect(`${text.stdout}${json.stdout}`).not.toContain(BODY);
  });

  it('says a full queue', async () => {
    const { dataDir, cli } = await installed();
    for (let i = 0; i < 100; i++) await writeRunRequest(dataDir, hook(i));
    const text = await cli(['runs', '--trigger', 'watcher/on-call']);
    expect(text.stdout).toContain(
      'watcher/on-call: 100 runs waiting (at most 100). Its queue is full: 100 runs wait, its most (100).',
    );
  });

  it('discard RUN_ID: without --yes nothing is removed; with it, the run goes and the activity record says so', async () => {
    const { dataDir, cli } = await installed();
    await writeRunRequest(dataDir, hook(1));
    await writeRunRequest(dataDir, hook(2));
    const dry = await cli(['runs', 'discard', hook(1).id]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Would discard 1 waiting run:\n');
    expect(dry.stdout).toContain('Nothing was discarded. Run again with --yes to discard.\n');
    expect(readdirSync(join(dataDir, PENDING_DIR))).toHaveLength(2);
    const done = await cli(['runs', 'discard', hook(1).id, '--yes']);
    expect([done.code, done.stdout]).toEqual([
      0,
      'Discarded 1 waiting run of watcher/on-call; recorded in the activity record.\n',
    ]);
    expect(readdirSync(join(dataDir, PENDING_DIR))).toEqual([runFileName(hook(2))]);
    const activity = await cli(['activity', '--decisions', '--limit', '1']);
    expect(activity.stdout).toContain(
      `Discarded waiting runs · Done · watcher/on-call: discarded 1 waiting run: run ${hook(1).id}`,
    );
    // Gone: refused, exit 1.
    const again = await cli(['runs', 'discard', hook(1).id, '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`No run \`${hook(1).id}\` is waiting`);
  });

  it('discard RUN_ID beyond the oldest listed: the dry run says it may still be waiting; --yes discards it', async () => {
    const { dataDir, cli } = await installed();
    for (let i = 0; i <= 200; i++) await writeRunRequest(dataDir, hook(i));
    const newest = hook(200).id;
    const dry = await cli(['runs', 'discard', newest]);
    expect(dry.stdout).toContain(
      `Run ${newest} is not among the 200 oldest waiting runs shown here; it may still be waiting.`,
    );
    expect(dry.stdout).not.toContain('nothing to discard');
    expect(readdirSync(join(dataDir, PENDING_DIR))).toHaveLength(201);
    const done = await cli(['runs', 'discard', newest, '--yes']);
    expect(done.code).toBe(0);
    expect(readdirSync(join(dataDir, PENDING_DIR))).toHaveLength(200);
  });

  it("discard --trigger: all of one trigger's runs, with --yes; JSON answer", async () => {
    const { dataDir, cli } = await installed();
    for (let i = 0; i < 3; i++) await writeRunRequest(dataDir, hook(i));
    const dry = await cli(['runs', 'discard', '--trigger', 'watcher/on-call']);
    expect(dry.stdout).toContain('Would discard 3 waiting runs of watcher/on-call:\n');
    expect(readdirSync(join(dataDir, PENDING_DIR))).toHaveLength(3);
    const done = await cli(['runs', 'discard', '--trigger', 'watcher/on-call', '--yes', '--json']);
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual({
      trigger: 'watcher/on-call',
      discarded: [hook(0).id, hook(1).id, hook(2).id],
      alreadyTaken: 0,
    });
    expect(readdirSync(join(dataDir, PENDING_DIR))).toEqual([]);
    const none = await cli(['runs', 'discard', '--trigger', 'watcher/on-call', '--yes']);
    expect(none.code).toBe(1);
  });

  it('usage errors: exit 2', async () => {
    const { cli } = await installed();
    for (const argv of [
      ['runs', 'discard'],
      ['runs', 'discard', 'a', 'b'],
      ['runs', 'discard', 'a', '--trigger', 'watcher/on-call'],
      ['runs', '--bogus'],
      ['runs', 'extra'],
      ['runs', '--trigger'],
    ])
      expect((await cli(argv)).code, argv.join(' ')).toBe(2);
  });
});
