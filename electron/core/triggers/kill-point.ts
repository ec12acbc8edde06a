/**
 * Named steps of the intake's commit (DESIGN.md "Commit points"), where a crash test makes the host
 * kill itself: `APOLLIA_TEST_KILL_AT=<step>` (or `<step>@<n>`, the n-th time the step is reached, from 1)
 * in the host's environment sends it SIGKILL there, so the test proves what a restart recovers with a
 * real process death, not a mock of `fs`. Never set by the app; unset, each call is one comparison.
 */

/** The steps of one batch, in order (see `intake-journal.ts` and `run-requests.ts`). */
export type KillStep =
  | 'after-append'
  | 'after-sync'
  | 'after-run-file'
  | 'after-answer'
  | 'during-trim'
  | 'after-traffic-sync';

const wanted = /^([a-z-]+)(?:@(\d+))?$/.exec(process.env.APOLLIA_TEST_KILL_AT ?? '');
const wantedStep = wanted?.[1] ?? null;
let remaining = Number(wanted?.[2] ?? 1);

/** Whether a kill is asked for at `step` (so a caller can hold a step open for it). */
export function killAsked(step: KillStep): boolean {
  return wantedStep === step;
}

/** Kills this process (SIGKILL, no cleanup) when the test environment names `step`; otherwise nothing. */
export function killPoint(step: KillStep): void {
  if (wantedStep !== step) return;
  remaining--;
  if (remaining <= 0) process.kill(process.pid, 'SIGKILL');
}

/** A crash test's trim threshold for the intake journal (`APOLLIA_TEST_JOURNAL_TRIM_BYTES`), so a trim comes at once. */
export function testTrimBytes(): number | undefined {
  const bytes = Number(process.env.APOLLIA_TEST_JOURNAL_TRIM_BYTES);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}
