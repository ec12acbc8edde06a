/**
 * Bench: hostile input answered promptly (goal under 1 s each).
 *
 * - an `.apo` whose one Python module is a single 200 KiB line (gzip makes it tiny): a scan that
 *   trimmed the line per character took over 30 s;
 * - an `.apo` describing 5,000 tools whose module defines 60,000 more: the module scan compared each
 *   function with every entry, and all 60,000 problems were listed (5 s to show in the app);
 * - opening an update of a package that offers 10,000 tools (the diff and the agent record, in the
 *   main process): both searched the lists once per entry (5 s);
 * - the dashboard of a package with 10,000 agents and triggers (main process, every dashboard
 *   open): each agent filtered every trigger and rebuilt its package's lookups (89 s);
 * - the consent Overview's text check of a description full of zero-width spaces (the renderer, on
 *   every render): it copied the list of found characters once per character (109 s at 100,000);
 * - a template whose parameter has the catastrophic pattern `^(\w+\s?)+$` and a default of 30 `a`s
 *   and `!`: a backtracking engine stalled inspection, `previewApply` (58 s) and the form (40 s a
 *   keystroke). Measured: inspection of the folder, then one `checkParameter` (the form's check,
 *   the same call the renderer makes on each keystroke) and one `previewApply` with that value.
 *
 * Each is timed inside one process (the median of `BENCH_RUNS`), so the figure is the time to
 * answer, not Node's start-up. Figures only, never assertions. Run alone:
 * `npx tsx bench/hostile-input.ts`; `npm run bench` runs it after the other rows.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkParameter } from '../shared/decisions/apply-parameters';
import { previewApply } from '../shared/decisions/apply-preview';
import type { ApolliaManifest } from '../shared/manifests/apollia-manifest';
import { accessFamilies } from '../shared/decisions/consent';
import { textSafetyReport } from '../shared/words/display-text';
import { decide, permissionsOf } from '../shared/decisions/decisions';
import { diffUpdate } from '../shared/decisions/update-diff';
import { packageAgentRecord, packageRecord, packageTriggerRecord } from '../electron/core/store/records';
import { emptyState, type StoreState } from '../electron/core/store/state';
import { dashboardOf } from '../electron/core/app/views';
import { parseManifestText } from '../electron/core/apollia/index';
import { inspectPath } from '../electron/core/app/inspect';
import { inspectTemplate } from '../electron/core/template/index';
import { writeTemplate } from '../test/helpers/template-folders';
import { manyToolName, manyToolsManifest } from '../test/helpers/many-tools';
import { INVOICES_DIR, packFiles } from '../test/helpers/pack';
import { CACHE_DIR } from './generate';
import { median, RUNS } from './measure';

const CATASTROPHIC = '^(\\w+\\s?)+$';
const TYPED = `${'a'.repeat(30)}!`;

/** The spec's example with `tools/extract.py` replaced by one 200 KiB line that still declares its tool. */
function longLinePackage(): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, 'long-line.apo');
  const module = `from apollia import tool\n@tool(name="extract_totals")\ndef extract_totals(path): return ${'path + '.repeat((200 * 1024) / 7)}path\n`;
  writeFileSync(
    path,
    packFiles({
      'apollia.toml': readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8'),
      'tools/extract.py': module,
      'workflows/reminders.py': readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8'),
    }),
  );
  return path;
}

/**
 * A package describing 5,000 tools, all in one module that also defines 60,000 more `@tool`
 * functions the manifest does not describe (about 200 KB gzip'd): the module scan once compared
 * each function with every entry (300 million comparisons), and the answer listed every problem.
 */
function hiddenToolsPackage(): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, 'hidden-tools.apo');
  const described = Array.from({ length: 5_000 }, (_, i) => manyToolName(i));
  const module = [
    'from apollia import tool',
    ...described.map((name) => `@tool\ndef ${name}():\n    pass`),
    ...Array.from({ length: 60_000 }, (_, i) => `@tool\ndef f${i}():\n    pass`),
  ].join('\n');
  writeFileSync(
    path,
    packFiles({
      'apollia.toml': manyToolsManifest('hidden', described.length).replace(
        /module = "tools\/tool_\d+\.py"/g,
        'module = "tools/many.py"',
      ),
      'tools/many.py': module,
    }),
  );
  return path;
}

/**
 * A store holding one package of `n` agents, `n` tools and `n` interval triggers, one per agent: what
 * the CLI can install (the app's install request takes at most 256 agents).
 */
function crowdedStore(n: number): StoreState {
  const families = ['read', 'read_personal', 'write_or_delete', 'send_external'] as const;
  const manifest = {
    package: { name: 'crowded', version: '1.0.0', publisher: 'Bench', description: 'Many agents.', sdk: '>=0.3, <0.4' },
    tools: Array.from({ length: n }, (_, i) => ({
      name: `tool_${i}`,
      module: `tools/t${i}.py`,
      description: `Tool ${i}`,
      action: families[i % 4],
    })),
    agents: Array.from({ length: n }, (_, i) => ({
      id: `a${i}`,
      name: `Agent ${i}`,
      mission: 'Works.',
      defaults: { access: [`pkg:crowded/tool_${i}`] },
    })),
    triggers: Array.from({ length: n }, (_, i) => ({
      id: `t${i}`,
      target: `a${i}`,
      source: { type: 'interval', every: '1h' },
    })),
  } as unknown as ApolliaManifest;
  const state = emptyState();
  state.packages.crowded = packageRecord(
    manifest,
    'a'.repeat(64),
    'packages/crowded/1.0.0',
    '2026-12-01T00:00:00Z',
    null,
  );
  const familyOf = accessFamilies(manifest);
  for (const agent of manifest.agents ?? []) {
    const record = packageAgentRecord('crowded', agent, {}, '2026-12-01T00:00:00Z', familyOf);
    state.agents[record.id] = record;
  }
  for (const trigger of manifest.triggers ?? []) {
    const record = packageTriggerRecord('crowded', manifest, trigger);
    state.triggers[record.id] = record;
  }
  return state;
}

/** A manifest the app's own parser accepts (the bench's packages are ours). */
function parseManifest(text: string): ApolliaManifest {
  const parsed = parseManifestText(text);
  if (!parsed.ok) throw new Error(`bench manifest does not parse: ${JSON.stringify(parsed)}`);
  return parsed.data as unknown as ApolliaManifest;
}

async function timed(runs: number, run: () => Promise<string> | string): Promise<{ ms: number; outcome: string }> {
  const samples: number[] = [];
  let outcome = '';
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    outcome = await run();
    samples.push(performance.now() - started);
  }
  return { ms: median(samples), outcome };
}

/** Prints the hostile-input rows. */
export async function hostileInputBench(): Promise<void> {
  const apo = longLinePackage();
  const hidden = hiddenToolsPackage();
  // Opening an update runs in the main process: the diff once searched the lists per entry (5 s).
  const bigBefore = parseManifest(manyToolsManifest('hidden', 10_000));
  const bigAfter = parseManifest(manyToolsManifest('hidden', 10_000));
  // Shown in the main process on every dashboard open: each agent once filtered every trigger (89 s).
  const crowded = crowdedStore(10_000);
  const folder = writeTemplate((m) => {
    m.parameters.words = { type: 'string', pattern: CATASTROPHIC, default: TYPED, description: 'Some words.' };
  });
  const acceptable = writeTemplate((m) => {
    m.parameters.words = { type: 'string', pattern: CATASTROPHIC, default: 'some words', description: 'Some words.' };
  });
  const accepted = await inspectTemplate(acceptable);
  const details = accepted.details;
  if (!details)
    throw new Error(
      `the template with a catastrophic pattern and a fitting default was refused: ${JSON.stringify(accepted.errors[0])}`,
    );
  const machine = { savedMcpServers: ['slack'], savedSecrets: [], canKeepSecrets: true, now: new Date() };
  const rows: [string, { ms: number; outcome: string }][] = [
    [
      'inspect .apo, one module a single 200 KiB line',
      await timed(RUNS, async () => {
        const inspection = await inspectPath(apo);
        return inspection.ok ? 'accepted' : `refused: ${inspection.errors[0]?.code}`;
      }),
    ],
    [
      'inspect .apo, 5,000 tools and 60,000 more the manifest does not describe',
      await timed(RUNS, async () => {
        const inspection = await inspectPath(hidden);
        return inspection.ok
          ? 'accepted'
          : `refused: ${inspection.errors[0]?.code}, ${inspection.errors.length} problems listed`;
      }),
    ],
    [
      'update of a package offering 10,000 tools: diff, decisions and agent record',
      await timed(RUNS, () => {
        const diff = diffUpdate(bigBefore, bigAfter);
        const operator = bigAfter.agents?.[0];
        if (!operator) throw new Error('the bench manifest has no agent');
        const decided = decide({
          manifest: bigAfter,
          installed: { manifest: bigBefore, access: {}, triggers: {} },
          trust: { verifiedPublisher: null },
          deniedTools: [],
          answers: { agents: {}, triggers: {} },
        });
        const record = packageAgentRecord(
          'hidden',
          operator,
          permissionsOf(decided).operator ?? {},
          '2026-12-01T00:00:00Z',
          accessFamilies(bigAfter),
        );
        return `${diff.proposedAccess.operator?.length ?? 0} entries asked again, ${record.access.length} recorded`;
      }),
    ],
    [
      'dashboard of a package with 10,000 agents and 10,000 triggers',
      await timed(RUNS, () => {
        const dashboard = dashboardOf(crowded, new Date('2026-12-01T00:00:00Z'));
        return `${dashboard.agents.length} agents, ${dashboard.agents.reduce((n, agent) => n + agent.triggers.length, 0)} triggers shown`;
      }),
    ],
    [
      'text check of a description holding 100,000 zero-width spaces',
      await timed(RUNS, () => {
        const warnings = textSafetyReport([
          { label: 'package description', text: 'a\u200b'.repeat(100_000), kind: 'prose' },
        ]);
        return warnings.map((warning) => warning.message).join('; ');
      }),
    ],
    [
      'inspect template, pattern ^(\\w+\\s?)+$, default 30 a + !',
      await timed(RUNS, async () => {
        const inspection = await inspectTemplate(folder);
        return inspection.ok ? 'accepted' : `refused: ${inspection.errors[0]?.code} at ${inspection.errors[0]?.path}`;
      }),
    ],
    [
      'form check (one keystroke), 30 a + !',
      await timed(RUNS, () => checkParameter(details.manifest.parameters?.words as never, TYPED) ?? 'fits'),
    ],
    [
      'previewApply, words = 30 a + !',
      await timed(RUNS, () => {
        const preview = previewApply(
          details,
          { parameters: { words: TYPED, channel: 'C0123ABCD' }, grants: [] },
          machine,
        );
        return preview.blockers.map((b) => b.path).join(', ') || 'no blockers';
      }),
    ],
  ];
  console.log(`\nhostile input (in process, median of ${RUNS}; goal < 1000 ms each)`);
  const width = Math.max(...rows.map(([name]) => name.length));
  for (const [name, { ms, outcome }] of rows)
    console.log(`${name.padEnd(width)}  ${ms.toFixed(1).padStart(8)} ms  ${ms < 1000 ? 'OK' : 'MISSED'}  ${outcome}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await hostileInputBench();
