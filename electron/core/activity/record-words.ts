/**
 * What `activity verify` proved, in words (DESIGN.md "Triggers at run time": `activity verify`
 * says what it proved and where it breaks; the dashboard shows it): one line per stream and one
 * verdict, the same for the CLI, `--json` and the Activity screen. Pure.
 */
import { BREAK_WORDS, type BreakKind } from './record-chain';
import type { ChainReport } from './record-verify';

/** The verdict of a check, as the CLI prints it and the Activity screen shows it. */
export interface RecordVerdict {
  intact: boolean;
  /** One line: "intact: 1,204 decisions from the first (…) to the last (…), head as committed", or the first break. */
  summary: string;
  /** One line per stream. */
  lines: string[];
  /** The first break's kind, or null. */
  breakKind: BreakKind | null;
  /** Breaks a writer found and recorded before this check. */
  recordedBreaks: number;
}

const count = (n: number): string => n.toLocaleString('en-US');
/** An ISO time as "2026-11-30 14:02" (UTC). */
const minute = (at: string): string => (/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(at) ? at.slice(0, 16).replace('T', ' ') : at);

const HEAD_WORDS = { committed: 'head as committed', sealed: 'head as sealed', none: 'no head to compare' } as const;

/** One stream's report in words. */
export function streamWords(name: 'decisions' | 'traffic', report: ChainReport): string {
  if (report.broken)
    return `${name}: BROKEN (${BREAK_WORDS[report.broken.kind]}) at ${report.broken.file}${report.broken.line > 0 ? ` line ${report.broken.line}` : ''}: ${report.broken.reason}`;
  if (report.entries === 0 || !report.first || !report.last) return `${name}: intact (empty)`;
  const what = name === 'decisions' ? 'decisions' : 'traffic entries';
  const span =
    report.rotatedOut > 0
      ? `from entry ${count(report.first.seq)} (the ${count(report.rotatedOut)} before set aside by recorded rotations)`
      : 'from the first';
  const keyed =
    report.keyedFrom !== null && report.keyedFrom > report.first.seq
      ? `, keyed from entry ${count(report.keyedFrom)}`
      : '';
  const after = report.afterHead > 0 ? ` (${report.afterHead} written after it)` : '';
  return `${name}: intact: ${count(report.entries)} ${what} ${span} (${minute(report.first.at)}) to the last (${minute(report.last.at)})${keyed}, ${HEAD_WORDS[report.headSource]}${after}`;
}

/** The verdict of a whole check. */
export function recordVerdict(report: {
  intact: boolean;
  decisions: ChainReport;
  traffic: ChainReport;
  recordedBreaks: readonly unknown[];
}): RecordVerdict {
  const lines = [streamWords('decisions', report.decisions), streamWords('traffic', report.traffic)];
  const broken = report.decisions.broken ? lines[0] : report.traffic.broken ? lines[1] : null;
  const recorded = report.recordedBreaks.length;
  const noted = recorded > 0 ? `; the record holds ${recorded} break${recorded === 1 ? '' : 's'} found earlier` : '';
  const summary = broken ?? `${(lines[0] as string).replace(/^decisions: /, '')}${noted}`;
  return {
    intact: report.intact,
    summary,
    lines,
    breakKind: report.decisions.broken?.kind ?? report.traffic.broken?.kind ?? null,
    recordedBreaks: recorded,
  };
}
