/**
 * `activity export --otlp URL`: the record sent once to a collector (a receiver this test runs on
 * loopback, OTLP/HTTP JSON), the count said; a dead collector is exit 1 with the failure in words; and
 * every refusal of `activity export` is a sentence naming what is wrong, with nothing written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { deadOtlpUrl, type OtlpReceiver, startOtlpReceiver } from '../../../test/helpers/otlp-receiver';
import { tempDir } from '../../../test/helpers/test-api';
import { ActivityLog } from '../activity/activity-log';
import { LINE_ATTRIBUTE } from '../activity/otlp-export';
import { sendToCollector } from './activity-otlp';
import type { CliIo } from './cli-io';
import { runCli } from './dispatcher';

const receivers: OtlpReceiver[] = [];
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
});

function io(): CliIo & { out: string; err: string } {
  const sink = { out: '', err: '' };
  return Object.assign(sink, {
    stdout: (t: string) => (sink.out += t),
    stderr: (t: string) => (sink.err += t),
    cwd: process.cwd(),
    env: { HOME: '/home/someone' },
  });
}

async function cli(argv: string[]) {
  const sink = io();
  const code = await runCli(argv, sink);
  return { code, stdout: sink.out, stderr: sink.err };
}

async function someRecord(): Promise<{ dataDir: string; log: ActivityLog }> {
  const dataDir = tempDir('apollia-cli-otlp-');
  const log = new ActivityLog(dataDir);
  await log.record({ kind: 'install', package: 'invoices', outcome: 'ok', detail: 'installed invoices 1.2.0' });
  await log.record({ kind: 'grant', package: 'invoices', agent: 'invoices/clerk', outcome: 'ok', detail: 'shell' });
  await log.record({ kind: 'run_queued', trigger: 'invoices/clerk/nightly', outcome: 'ok', detail: 'run 1' });
  return { dataDir, log };
}

describe('activity export --otlp (CLI)', () => {
  it('sends the stored lines as log records, batched, and says how many', async () => {
    const { dataDir, log } = await someRecord();
    const r = await startOtlpReceiver();
    receivers.push(r);
    const all = await cli(['--data-dir', dataDir, 'activity', 'export', '--otlp', r.url]);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout).toBe(`Sent 3 entries of the activity record to ${r.url}.\n`);
    expect(r.requests).toHaveLength(1);
    const stored = [
      ...readFileSync(log.decisionsPath, 'utf8').split('\n').filter(Boolean),
      ...readFileSync(log.trafficPath(), 'utf8').split('\n').filter(Boolean),
    ];
    expect(r.requests[0]?.records.map((x) => x.attributes[LINE_ATTRIBUTE])).toEqual(stored);
    const decisions = await cli(['--data-dir', dataDir, 'activity', 'export', '--decisions', '--otlp', r.url]);
    expect(decisions.stdout).toContain('Sent 2 entries');
    expect(r.requests[1]?.records.map((x) => x.attributes['apollia.record.stream'])).toEqual([
      'decisions',
      'decisions',
    ]);
  });

  it('a dead collector: exit 1, the failure in words, the record as it was', async () => {
    const { dataDir, log } = await someRecord();
    const before = readFileSync(log.decisionsPath, 'utf8');
    const files = readdirSync(dataDir).sort();
    const sink = io();
    const code = await sendToCollector(sink, log, await deadOtlpUrl(), { decisionsOnly: false }, 1500);
    expect(code).toBe(1);
    expect(sink.out).toBe('');
    expect(sink.err).toMatch(
      /^3 of 3 entries could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/logs \(1 batch failed after retries\): .*ECONNREFUSED/,
    );
    expect(readFileSync(log.decisionsPath, 'utf8')).toBe(before);
    expect(readdirSync(dataDir).sort()).toEqual(files);
  });

  it.each([
    [['--otlp'], "--otlp needs the collector's address (e.g. https://otel.example.com/v1/logs)"],
    [['--otlp', '--json'], "--otlp needs the collector's address"],
    [['--otlp', 'http://otel.example.com/v1/logs'], 'the OTLP address must use https://'],
    [['--otlp', 'https://me:secret@otel.example.com/'], 'the OTLP address must not carry a user or password'],
    [['--otlp', 'otel.example.com'], 'the OTLP address `otel.example.com` is not an address'],
    [['--json', '--otlp', 'https://otel.example.com/v1/logs'], '--json prints the lines here and --otlp sends them'],
    [['--json', '--since', 'yesterday'], '--since needs a time (ISO 8601, e.g. 2026-11-30T14:02:00Z), not `yesterday`'],
    [['--json', '--since'], '--since needs a time (ISO 8601'],
    [['--jsn'], 'unknown option `--jsn` for activity export: did you mean --json?'],
    [['decisions.jsonl'], 'activity export takes no argument'],
  ])('refused: %j', async (args, sentence) => {
    const dataDir = tempDir('apollia-cli-otlp-refused-');
    const out = await cli(['--data-dir', dataDir, 'activity', 'export', ...args]);
    expect(out.code).toBe(2);
    if (args.includes('--json')) {
      // With --json a usage error is the one refusal document on stdout, and nothing on stderr (DESIGN.md "The command line").
      const document = JSON.parse(out.stdout) as { ok: boolean; errors: { message: string }[] };
      expect(document.ok).toBe(false);
      expect(document.errors[0]?.message).toContain(sentence);
      expect(out.stderr).toBe('');
    } else {
      expect(out.stdout).toBe('');
      expect(out.stderr).toContain(sentence);
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
