/**
 * Traffic's head committed in the trigger host's intake journal (DESIGN.md "Commit points"): each batch's traffic
 * lines and head ride in the journal, `verify` compares traffic with that head, and a data folder of the version
 * before (traffic's head in `activity-head.json`) is read once, then the journal's head is the one.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { frameRecord, IntakeJournal, JOURNAL_FILE, readRecords } from '../triggers/intake-journal';
import { HostTrafficJournal } from '../triggers/traffic-journal';
import { ActivityLog } from './activity-log';
import { chainLines, emptyHead } from './record-chain';
import { writeHeads } from './record-head';
import { openRecordKey } from './record-key';

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
const fired = (n: number) => ({
  kind: 'run_queued' as const,
  trigger: 'crm/t',
  outcome: 'ok' as const,
  detail: `run ${n}`,
});

async function hostRecord(dataDir: string, batches: number, trimBytes?: number) {
  const journal = new IntakeJournal(dataDir, {
    now: () => Date.now(),
    seenWindowMs: 60_000,
    ...(trimBytes ? { trimBytes } : {}),
  });
  await journal.open();
  const log = new ActivityLog(dataDir);
  const traffic = new HostTrafficJournal(journal);
  for (let b = 0; b < batches; b++) await log.recordTraffic([fired(2 * b), fired(2 * b + 1)], traffic);
  await journal.close();
  return log;
}

/**
 * A data folder as the version before wrote it: three fires chained in traffic.jsonl (the first `kept` of them left
 * there), both heads sealed in activity-head.json, traffic's counting all three.
 */
async function folderOfTheVersionBefore(kept: number): Promise<{ dataDir: string; log: ActivityLog }> {
  const dataDir = tempDir('apollia-traffic-');
  const { key } = await openRecordKey(dataDir);
  const log = new ActivityLog(dataDir);
  mkdirSync(log.dir, { recursive: true });
  const chained = chainLines(
    key,
    emptyHead(key, 'traffic'),
    [1, 2, 3].map((n) => log.clean(fired(n))),
  );
  writeFileSync(log.trafficPath(), `${chained.lines.slice(0, kept).join('\n')}\n`);
  await writeHeads(dataDir, key, { decisions: emptyHead(key, 'decisions'), traffic: chained.head });
  return { dataDir, log };
}

describe("traffic's head in the intake journal", () => {
  it('is intact as written, with the head the journal committed', async () => {
    const dataDir = tempDir('apollia-traffic-');
    const log = await hostRecord(dataDir, 3);
    const report = await log.verify();
    expect(report.traffic).toMatchObject({ intact: true, entries: 6, headSource: 'committed' });
    expect(report.traffic.expectedHead?.count).toBe(6);
  });

  it('a cut traffic tail, the journal holding the head: named "cut"', async () => {
    const dataDir = tempDir('apollia-traffic-');
    // Trimmed after each batch: the journal keeps the head, not the lines traffic.jsonl holds.
    const log = await hostRecord(dataDir, 3, 1);
    const kept = lines(log.trafficPath()).slice(0, 2);
    writeFileSync(log.trafficPath(), `${kept.join('\n')}\n`);
    expect((await log.verify()).traffic.broken).toMatchObject({ kind: 'cut' });
  });

  it('the journal\'s head edited without the key: named "head", naming the journal', async () => {
    const dataDir = tempDir('apollia-traffic-');
    const log = await hostRecord(dataDir, 2);
    const path = join(dataDir, JOURNAL_FILE);
    const kept = lines(log.trafficPath()).slice(0, 2);
    writeFileSync(log.trafficPath(), `${kept.join('\n')}\n`);
    // The attacker cuts the record and rolls the journal's head back to match: the seal cannot be made without the key.
    const records = readRecords(readFileSync(path)).records.map((r) =>
      r.t === 'traffic' ? { ...r, head: { count: 2, last: r.head.last }, lines: [] } : r,
    );
    writeFileSync(path, Buffer.concat(records.map((r) => frameRecord(r))));
    expect((await log.verify()).traffic.broken).toMatchObject({ kind: 'head', file: JOURNAL_FILE });
  });

  it("a data folder of the version before: activity-head.json's traffic head is read once, then the journal's", async () => {
    const { dataDir, log } = await folderOfTheVersionBefore(3);
    expect((await log.verify()).traffic).toMatchObject({ intact: true, entries: 3, headSource: 'sealed' });
    // The host's first batch carries the head over into the journal: the old file is no longer needed.
    await hostRecord(dataDir, 1);
    const after = await log.verify();
    expect(after.traffic).toMatchObject({ intact: true, entries: 5, headSource: 'committed' });
    expect(after.recordedBreaks).toEqual([]);
  });

  it("a legacy head counting more than the record: the host's first batch records the cut", async () => {
    const { dataDir, log } = await folderOfTheVersionBefore(2);
    expect((await log.verify()).traffic.broken).toMatchObject({ kind: 'cut' });
    await hostRecord(dataDir, 1);
    const after = await log.verify();
    expect(after.recordedBreaks.map((e) => e.detail)).toEqual([
      expect.stringContaining('1 traffic entries were missing'),
    ]);
  });
});
