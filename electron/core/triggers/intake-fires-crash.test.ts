/**
 * Schedule and folder fires through the intake journal across real crashes (DESIGN.md "Commit points"): `serve` is
 * killed (SIGKILL) at each step of the fire's batch (`kill-point.ts`), or by strace at its first `fdatasync`, then
 * started again. The fire is made exactly once: one run file, whole, with the content the journal holds; the
 * restarted host neither loses it nor makes it again, and a schedule does not fire that time a second time.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../test/helpers/free-port';
import { endServes, hasStrace, hostGone, type ServeProcess, serve } from '../../../test/helpers/serve-process';
import { tempDir } from '../../../test/helpers/test-api';
import { putTriggers, triggerRecord } from '../../../test/helpers/trigger-host';
import { JOURNAL_FILE, type JournalRun, readRecords } from './intake-journal';
import { PENDING_DIR, type RunRequest } from './run-requests';

afterEach(endServes);

const STEPS = ['after-append', 'after-sync', 'after-answer', 'after-run-file', 'during-trim'] as const;
const SCHEDULE = 'reports/hourly';
const FOLDER = 'inbox/new-file';
const HOUR = 3_600_000;

/** How a test kills the first host: at a named step, or by strace at its first fdatasync. */
interface Kill {
  env: Record<string, string>;
  strace: string[];
}

const kills: [string, Kill][] = [
  ...STEPS.map((step): [string, Kill] => [
    step,
    {
      env: { APOLLIA_TEST_KILL_AT: step, ...(step === 'during-trim' ? { APOLLIA_TEST_JOURNAL_TRIM_BYTES: '1' } : {}) },
      strace: [],
    },
  ]),
  [
    'by strace at its first fdatasync',
    { env: {}, strace: ['-e', 'trace=fdatasync', '-e', 'inject=fdatasync:signal=SIGKILL:when=1'] },
  ],
];

/** The run files of `runs/pending/`, each read whole: its text and what it parses to. */
function runFiles(dataDir: string): { name: string; text: string; run: RunRequest }[] {
  const dir = join(dataDir, PENDING_DIR);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      return { name, text, run: JSON.parse(text) as RunRequest };
    });
}

/** Every run record the journal holds now (after a restart: those not done, or kept by a trim). */
function journalRuns(dataDir: string): JournalRun[] {
  const records = readRecords(readFileSync(join(dataDir, JOURNAL_FILE))).records;
  return records.flatMap((r) => (r.t === 'run' ? [r.run] : []));
}

/**
 * The one run of `trigger` after the crash and the restart: exactly one file, whole (the writer's own text of it),
 * and, when the journal still holds its record, the same run byte for byte.
 */
function theOneRun(dataDir: string, trigger: string): RunRequest {
  const files = runFiles(dataDir).filter((f) => f.run.trigger === trigger);
  expect(
    files.map((f) => f.run.cause),
    'exactly one run of the fire',
  ).toHaveLength(1);
  const [file] = files as [(typeof files)[number]];
  expect(file.text, 'the file is whole, as the writer makes it').toBe(`${JSON.stringify(file.run)}\n`);
  const journaled = journalRuns(dataDir).find((r) => r.id === file.run.id);
  if (journaled) expect(journaled).toEqual(file.run);
  return file.run;
}

async function stopCleanly(host: ServeProcess): Promise<void> {
  await host.ready;
  host.child.kill('SIGTERM');
  expect(await host.exited).toBe('0');
}

describe('schedule and folder fires across real crashes: made once after a restart, never twice, never lost', () => {
  for (const [how, kill] of kills) {
    it.skipIf(kill.strace.length > 0 && !hasStrace)(
      `a missed schedule fired at start, serve killed ${how}`,
      async () => {
        const dataDir = join(tempDir('apollia-fires-crash-'), 'data');
        const armedAt = new Date(Date.now() - 2 * HOUR - 60_000).toISOString();
        await putTriggers(dataDir, [
          triggerRecord({ id: SCHEDULE, type: 'interval', every: '1h', armedAt, input: 'Write the report' }),
        ]);
        const port = await freePort();
        // Missed while no host ran: it fires once as the host starts, and the host dies in that fire's batch.
        expect(await serve(dataDir, port, kill.env, kill.strace).exited).toBe('SIGKILL');
        await hostGone(dataDir);
        const again = serve(dataDir, port);
        await again.ready;
        await stopCleanly(again);
        const run = theOneRun(dataDir, SCHEDULE);
        expect(run).toMatchObject({ trigger: SCHEDULE, cause: 'missed', input: { text: 'Write the report' } });
        // The restarted host counted from that fire (the journal's), not from the arming: its next time is after the
        // fire, and it did not fire again.
        const next = new RegExp(`scheduled ${SCHEDULE} next (\\S+)\n`).exec(again.out())?.[1] ?? '';
        expect(Date.parse(next)).toBeGreaterThan(Date.parse(run.fired_at));
        expect(again.out()).not.toContain(`fired ${SCHEDULE}`);
      },
      60_000,
    );

    it.skipIf(kill.strace.length > 0 && !hasStrace)(
      `a watched folder's change, serve killed ${how}`,
      async () => {
        const dataDir = join(tempDir('apollia-fires-crash-'), 'data');
        const watched = tempDir('apollia-watched-');
        await putTriggers(dataDir, [
          triggerRecord({ id: FOLDER, type: 'file_watch', folder: watched, input: 'File the invoice' }),
        ]);
        const port = await freePort();
        const first = serve(dataDir, port, kill.env, kill.strace);
        await first.ready;
        writeFileSync(join(watched, 'invoice-1.pdf'), 'pdf');
        expect(await first.exited).toBe('SIGKILL');
        await hostGone(dataDir);
        // The restarted host's first scan fires nothing: the run can come only from the journal.
        await stopCleanly(serve(dataDir, port));
        const run = theOneRun(dataDir, FOLDER);
        expect(run).toMatchObject({
          trigger: FOLDER,
          cause: 'file_watch',
          input: { text: 'File the invoice', changed_paths: [join(watched, 'invoice-1.pdf')] },
        });
      },
      60_000,
    );
  }
});
