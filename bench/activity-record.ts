/**
 * What the keyed activity record costs a decision (DESIGN.md "Triggers at run time", the record; "Commit points"):
 *
 * - the chain alone: `chainLines` over a grant-sized entry, with its HMAC-SHA256, against the same line made without
 *   one (`JSON.stringify` of the entry with its `seq`): the keyed chain's CPU per line;
 * - a store commit that records one decision (the person's collector set, then removed: `collector_set`,
 *   `collector_removed`, each the state with its outbox and head, then the line appended to `decisions.jsonl`)
 *   against the same change committed with nothing recorded: what the record adds to a decision, fsyncs included.
 *
 * Medians of 3 rounds after a warm-up. Run: `npx tsx bench/activity-record.ts [N]` (temp data folders, removed after).
 * The cost per webhook delivery is printed by `bench/webhook-intake.ts` ("the keyed activity record's appends").
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActivityLog } from '../electron/core/activity/activity-log';
import { chainLines, emptyHead } from '../electron/core/activity/record-chain';
import { Store } from '../electron/core/store/store';

const n = Number(process.argv[2] ?? 200);
const ENTRY = {
  at: '2026-12-03T12:00:00.000Z',
  kind: 'grant',
  package: 'invoices',
  agent: 'invoices/invoice-clerk',
  outcome: 'ok',
  detail: 'may use now: file_read, pkg:invoices/extract_totals; withheld: mcp:ledger/lookup (asks you first)',
};
const URLS = ['https://collector.example/v1/logs', 'https://other.example/v1/logs'];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

function microsPer(count: number, work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

/** µs per line of the keyed chain, and of the same lines without their HMAC. */
function chainRound(): { keyed: number; plain: number } {
  const key = randomBytes(32);
  const entries = Array.from({ length: 10_000 }, () => ENTRY);
  const keyed = microsPer(entries.length, () => chainLines(key, emptyHead(key, 'decisions'), entries));
  const plain = microsPer(entries.length, () => {
    let seq = 0;
    for (const entry of entries) JSON.stringify({ ...entry, seq: ++seq });
  });
  return { keyed, plain };
}

/** µs per commit of `n` changes of the collector's address, each recording its decision or nothing. */
async function commitRound(recorded: boolean): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apollia-bench-record-'));
  try {
    const store = new Store(dataDir, { record: new ActivityLog(dataDir) });
    const change = (i: number) =>
      store.update(
        (draft) => {
          draft.settings.activityCollector = URLS[i % 2] ?? null;
          return { result: null };
        },
        recorded
          ? () => [{ kind: 'collector_set', outcome: 'ok', detail: `activity sent to ${URLS[i % 2]}` }]
          : undefined,
      );
    await change(1);
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await change(i);
    return Number(process.hrtime.bigint() - start) / 1000 / n;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

chainRound();
await commitRound(true);
const chains: { keyed: number; plain: number }[] = [];
const withRecord: number[] = [];
const without: number[] = [];
for (let round = 0; round < 3; round++) {
  chains.push(chainRound());
  withRecord.push(await commitRound(true));
  without.push(await commitRound(false));
}
const keyed = median(chains.map((c) => c.keyed));
const plain = median(chains.map((c) => c.plain));
const committed = median(withRecord);
const bare = median(without);
console.log(`activity record (load ${loadavg()[0]?.toFixed(1)}; medians of 3 rounds)`);
console.log(
  `  the chain: ${keyed.toFixed(1)} µs per keyed line, ${plain.toFixed(1)} µs the same line without its HMAC: the key adds ${(keyed - plain).toFixed(1)} µs`,
);
console.log(
  `  a decision: ${(committed / 1000).toFixed(2)} ms per commit recording it, ${(bare / 1000).toFixed(2)} ms the same commit recording nothing: the record adds ${((committed - bare) / 1000).toFixed(2)} ms (${n} commits a round)`,
);
