/**
 * Waiting runs seen and cleared: the listing of `runs/pending/` (trigger, agent, time, cause, the
 * payload's type, never its body), one run or all of one trigger's discarded and recorded as a
 * decision, a full queue said, and the folder read as hostile input (a huge, malformed, linked or
 * special file is listed as unreadable, never followed, never a failure; the listing is bounded).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packFolder } from '../../../test/helpers/pack';
import { tempDir, testApi } from '../../../test/helpers/test-api';
import type { CoreApi } from '../api';
import { PENDING_DIR, type RunRequest, runFileName, writeRunRequest } from '../triggers/run-requests';
import { MAX_RUN_FILE_BYTES, MAX_RUNS_LISTED } from './run-queue';

const WATCHER_DIR = new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname;
const BODY_SECRET = 'the-body-says-wire-money-now';

/** An Api with the `watcher` package installed (its triggers `watcher/on-call` and `watcher/on-change`, agent Tidy). */
async function withWatcher(): Promise<{ api: CoreApi; dataDir: string }> {
  const { api, dataDir } = testApi();
  const path = join(tempDir('apollia-apo-'), 'watcher.apo');
  writeFileSync(path, packFolder(WATCHER_DIR));
  const handle = await api.registerSource(path, 'open-file');
  if (!handle.ok) throw new Error(handle.error.message);
  const shown = await api.inspect({ sourceId: handle.value.id });
  if (!shown.ok) throw new Error(shown.error.message);
  const installed = await api.install({
    sourceId: handle.value.id,
    decisions: { agents: { tidy: { access: {} } }, triggers: {} },
  });
  if (!installed.ok) throw new Error(installed.error.message);
  return { api, dataDir };
}

let counter = 0;
/** A run request as the trigger host writes it, fired `minute` minutes into 2026-12-01. */
function run(trigger: string, minute: number, extra: Partial<RunRequest> = {}): RunRequest {
  counter++;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    trigger,
    target: 'watcher/tidy',
    input: { text: null },
    fired_at: new Date(Date.UTC(2026, 11, 1, 8, minute)).toISOString(),
    cause: 'schedule',
    ...extra,
  };
}

const webhookRun = (minute: number) =>
  run('watcher/on-call', minute, {
    cause: 'webhook',
    payload: { untrusted: true, webhook_id: 'msg_1', type: 'scan.ready', body: { note: BODY_SECRET } },
  });

async function list(api: CoreApi, trigger?: string) {
  const answer = await api.waitingRuns(trigger === undefined ? undefined : { trigger });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value;
}

async function decisions(api: CoreApi) {
  const answer = await api.activity({ decisionsOnly: true });
  if (!answer.ok) throw new Error(answer.error.message);
  return answer.value.events;
}

const pending = (dataDir: string) => join(dataDir, PENDING_DIR);

describe('waiting runs: listed', () => {
  it('lists each run oldest first with its trigger, agent, time, cause and payload type, never the body', async () => {
    const { api, dataDir } = await withWatcher();
    const hook = webhookRun(5);
    const watch = run('watcher/on-change', 1, { cause: 'file_watch', input: { text: null, changed_paths: ['/x'] } });
    await writeRunRequest(dataDir, hook);
    await writeRunRequest(dataDir, watch);
    const view = await list(api);
    expect(view.total).toBe(2);
    expect(view.notListed).toBe(0);
    expect(view.runs).toEqual([
      {
        id: watch.id,
        trigger: 'watcher/on-change',
        triggerName: 'on-change',
        agentId: 'watcher/tidy',
        agentName: 'Tidy',
        target: 'watcher/tidy',
        firedAt: watch.fired_at,
        cause: 'file_watch',
        payloadType: null,
        hasPayload: false,
        unreadable: null,
      },
      {
        id: hook.id,
        trigger: 'watcher/on-call',
        triggerName: 'on-call',
        agentId: 'watcher/tidy',
        agentName: 'Tidy',
        target: 'watcher/tidy',
        firedAt: hook.fired_at,
        cause: 'webhook',
        payloadType: 'scan.ready',
        hasPayload: true,
        unreadable: null,
      },
    ]);
    expect(JSON.stringify(view)).not.toContain(BODY_SECRET);
    expect(view.triggers.map((t) => [t.trigger, t.waiting, t.limit, t.full])).toEqual([
      ['watcher/on-call', 1, 100, false],
      ['watcher/on-change', 1, 100, false],
    ]);
    // One trigger's runs only.
    expect((await list(api, 'watcher/on-call')).runs.map((r) => r.id)).toEqual([hook.id]);
  });

  it('a missing folder: nothing waits', async () => {
    const { api } = await withWatcher();
    expect(await list(api)).toEqual({ total: 0, runs: [], notListed: 0, triggers: [] });
  });

  it('a trigger at its limit is full; the dashboard has the limit and triggerStatus the count', async () => {
    const { api, dataDir } = await withWatcher();
    for (let i = 0; i < 100; i++) await writeRunRequest(dataDir, run('watcher/on-call', i));
    const view = await list(api, 'watcher/on-call');
    expect(view.triggers).toEqual([
      {
        trigger: 'watcher/on-call',
        triggerName: 'on-call',
        agentId: 'watcher/tidy',
        agentName: 'Tidy',
        waiting: 100,
        limit: 100,
        full: true,
      },
    ]);
    const dashboard = await api.dashboard();
    if (!dashboard.ok) throw new Error(dashboard.error.message);
    const trigger = dashboard.value.agents[0]?.triggers.find((t) => t.id === 'watcher/on-call');
    expect(trigger?.waitLimit).toBe(100);
    const status = await api.triggerStatus();
    expect(status.ok && status.value.pending.byTrigger['watcher/on-call']).toBe(100);
  });

  it('lists at most the oldest runs of the cap and counts the rest', async () => {
    const { api, dataDir } = await withWatcher();
    mkdirSync(pending(dataDir), { recursive: true });
    for (let i = 0; i < MAX_RUNS_LISTED + 5; i++) {
      const request = run('gone/trigger', i);
      writeFileSync(join(pending(dataDir), runFileName(request)), JSON.stringify(request));
    }
    const view = await list(api);
    expect(view.total).toBe(MAX_RUNS_LISTED + 5);
    expect(view.runs).toHaveLength(MAX_RUNS_LISTED);
    expect(view.notListed).toBe(5);
    // A trigger no longer on this computer: its runs are listed, without a name or a limit.
    expect(view.runs[0]).toMatchObject({ trigger: 'gone/trigger', triggerName: null, agentName: null });
    expect(view.triggers[0]).toMatchObject({ trigger: 'gone/trigger', limit: null, full: false });
  });
});

describe('waiting runs: runs/pending/ is hostile input', () => {
  it('a huge, a malformed, a linked, a folder and a FIFO run file are listed as unreadable, never followed', async () => {
    const { api, dataDir } = await withWatcher();
    const dir = pending(dataDir);
    mkdirSync(dir, { recursive: true });
    const name = (minute: number) => runFileName(run('watcher/on-call', minute));
    // Huge: one byte over the bound, a valid JSON object all the same.
    writeFileSync(join(dir, name(1)), `{"cause":"webhook","pad":"${'x'.repeat(MAX_RUN_FILE_BYTES)}"}`);
    writeFileSync(join(dir, name(2)), '{"cause": "webhook", "payload": ');
    writeFileSync(join(dir, name(3)), '[1, 2, 3]');
    // A link to a file outside the folder, whose content must not be read.
    const outside = join(tempDir('apollia-outside-'), 'secret.json');
    writeFileSync(outside, JSON.stringify({ cause: 'webhook', target: 'outside-file-content' }));
    symlinkSync(outside, join(dir, name(4)));
    mkdirSync(join(dir, name(5)));
    execFileSync('mkfifo', [join(dir, name(6))]);
    // Not a run file's name: not a run.
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    writeFileSync(join(dir, `.${name(7)}.tmp-1-x`), '{}');
    const view = await list(api);
    expect(view.total).toBe(6);
    expect(view.runs.map((r) => r.unreadable)).toEqual([
      'it is larger than 1 MiB: not read',
      'it is not JSON',
      'it is not a run request (not a JSON object)',
      'it is a link, not a file: not followed',
      'it is not a regular file',
      'it is not a regular file',
    ]);
    expect(JSON.stringify(view)).not.toContain('outside-file-content');
    for (const r of view.runs) expect(r).toMatchObject({ cause: null, payloadType: null, target: null });
    // Each can still be discarded: the link itself goes, never what it points to.
    const linked = view.runs[3]?.id as string;
    const discarded = await api.discardWaitingRun({ runId: linked });
    expect(discarded.ok).toBe(true);
    expect(existsSync(outside)).toBe(true);
  });

  it('a payload type and a target are bounded, a cause never heard of is none', async () => {
    const { api, dataDir } = await withWatcher();
    const request = run('watcher/on-call', 1, {
      target: 't'.repeat(5000),
      cause: 'rm -rf' as RunRequest['cause'],
      payload: { untrusted: true, webhook_id: 'm', type: 'y'.repeat(5000), body: null },
    });
    await writeRunRequest(dataDir, request);
    const [listed] = (await list(api)).runs;
    expect(listed?.cause).toBeNull();
    expect([...(listed?.payloadType ?? '')]).toHaveLength(201);
    expect(listed?.payloadType?.endsWith('…')).toBe(true);
    expect([...(listed?.target ?? '')]).toHaveLength(201);
  });
});

describe('waiting runs: discarded', () => {
  it('discards one run by its id, recorded as a decision; the others stay', async () => {
    const { api, dataDir } = await withWatcher();
    const first = webhookRun(1);
    const second = webhookRun(2);
    await writeRunRequest(dataDir, first);
    await writeRunRequest(dataDir, second);
    const answer = await api.discardWaitingRun({ runId: first.id });
    expect(answer).toEqual({ ok: true, value: { trigger: 'watcher/on-call', discarded: [first.id], alreadyTaken: 0 } });
    expect(readdirSync(pending(dataDir))).toEqual([runFileName(second)]);
    const [latest] = await decisions(api);
    expect(latest).toMatchObject({
      kind: 'runs_discarded',
      package: 'watcher',
      agent: 'watcher/tidy',
      trigger: 'watcher/on-call',
      outcome: 'ok',
      detail: `discarded 1 waiting run: run ${first.id}, queued ${first.fired_at}`,
    });
    // Gone now: refused, and nothing more recorded.
    const again = await api.discardWaitingRun({ runId: first.id });
    expect(again.ok === false && again.error.code).toBe('run.unknown');
    expect((await decisions(api)).filter((e) => e.kind === 'runs_discarded')).toHaveLength(1);
  });

  it("discards all of one trigger's runs, recorded once; another trigger's stay", async () => {
    const { api, dataDir } = await withWatcher();
    for (let i = 0; i < 3; i++) await writeRunRequest(dataDir, webhookRun(i));
    const other = run('watcher/on-change', 9, { cause: 'file_watch' });
    await writeRunRequest(dataDir, other);
    const answer = await api.discardTriggerRuns({ triggerId: 'watcher/on-call' });
    expect(answer.ok && answer.value.discarded).toHaveLength(3);
    expect(readdirSync(pending(dataDir))).toEqual([runFileName(other)]);
    const discards = (await decisions(api)).filter((e) => e.kind === 'runs_discarded');
    expect(discards).toHaveLength(1);
    expect(discards[0]).toMatchObject({ trigger: 'watcher/on-call', detail: 'discarded 3 waiting runs' });
    const none = await api.discardTriggerRuns({ triggerId: 'watcher/on-call' });
    expect(none.ok === false && none.error.code).toBe('run.none_waiting');
  });

  it('a run id that is not a run id is refused at the door; nothing is removed', async () => {
    const { api, dataDir } = await withWatcher();
    const request = webhookRun(1);
    await writeRunRequest(dataDir, request);
    for (const runId of ['../state.json', '*', `${request.id}/..`, '']) {
      const answer = await api.discardWaitingRun({ runId });
      expect(answer.ok === false && answer.error.code).toBe('request.invalid');
    }
    expect(readdirSync(pending(dataDir))).toEqual([runFileName(request)]);
  });
});
