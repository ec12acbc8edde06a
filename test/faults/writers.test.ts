/**
 * Who writes the store's two durable logs (DESIGN.md "Commit points": one commit per use case,
 * nothing else is a commit). Scans the app's source: a file that names `state.json` or the
 * decisions file and calls a write (a write, an append, a rename, a truncate) is a writer, and so is
 * a file that opens an `ActivityLog` or appends to one in batches. The lists below are every writer
 * there is; a new one fails here until it is shown to go through the commit (`Store.update` with
 * its record) and added with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const WRITE =
  /\b(writeFileAtomic|writeFile|writeFileSync|appendFile|appendFileSync|appendLines|append|truncate|createWriteStream|rename|renameSync)\s*\(/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : [];
  });
}

const files = [...sources(join(ROOT, 'electron')), ...sources(join(ROOT, 'shared'))].map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), 'utf8'),
}));
const writersOf = (names: RegExp) =>
  files
    .filter(({ text }) => names.test(text) && WRITE.test(text))
    .map(({ path }) => path)
    .sort();

describe('the writers of state.json and decisions.jsonl', () => {
  it('state.json is written only by the store (its commit, and a damaged file set aside)', () => {
    expect(writersOf(/STATE_FILE|statePath|state\.json/)).toEqual([
      // Names state.json only in a reason; appends record lines (the outbox) after the store's commit.
      'electron/core/activity/record-commit.ts',
      'electron/core/store/store.ts',
    ]);
  });

  it('decisions.jsonl is written only by the record, from the commit or its outbox', () => {
    expect(writersOf(/DECISIONS_FILE|decisionsPath|decisions\.jsonl/)).toEqual([
      // The log: the commit's append, the outbox's flush, traffic rotation's decision, the trigger host's batches.
      'electron/core/activity/activity-log.ts',
      // The outbox's lines appended (after the rename, and at open).
      'electron/core/activity/record-commit.ts',
      // The one move from the plain chain (when the key is made).
      'electron/core/activity/record-migration.ts',
      // Names the file only in its comments: its writes are the state's.
      'electron/core/store/store.ts',
    ]);
  });

  it('an ActivityLog is opened, or appended to in batches, only by the Api and the trigger host (for their stores), the store and the CLI reader', () => {
    const openers = files
      .filter(({ text }) => /new ActivityLog\(|\.recordMany\(/.test(text))
      .map(({ path }) => path)
      .sort();
    expect(openers).toEqual([
      'electron/core/activity/activity-log.ts',
      // Reads the record's files to ship them to the organization's collector (`files`); never records.
      'electron/core/activity/activity-shipper.ts',
      // Opens the data folder's record and gives it to the store, whose commit is the only writer of decisions.
      'electron/core/api.ts',
      // Reads and verifies (`activity`, `activity verify`, `activity export`); never records.
      'electron/core/cli/activity-command.ts',
      // Read: a removal already done (the record's last word on the key, on the package) is said, exit 0.
      'electron/core/cli/trust-command.ts',
      'electron/core/cli/uninstall-command.ts',
      // The commit: `Store.update` with the change's record (names `recordMany` for a record with no state yet).
      'electron/core/store/store.ts',
      // The host's queue's log: traffic and the host's own decisions in batches (`recordTraffic`; a log without it,
      // a bench's, `recordMany`), each flushing the committed outbox and the journal's traffic first.
      'electron/core/triggers/traffic-journal.ts',
      // The record its store commits with.
      'electron/core/triggers/trigger-host.ts',
    ]);
  });

  it('no Api module records a change after its store write: changes record through Store.update', () => {
    // `recordActivity` commits entries that change nothing in the store; a store change passes its record to update.
    // (`if (changed) await recordActivity(` after the write is the same mistake.)
    const after = files.filter(({ text }) =>
      /store\.update\([\s\S]{0,4000}?\}\);\s*(?:if \([^)]*\)\s*)?await recordActivity\(/.test(text),
    );
    expect(after.map(({ path }) => path)).toEqual([]);
  });
});
