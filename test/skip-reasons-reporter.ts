/**
 * A Vitest reporter beside the default one: at the end of a run, each reason tests were skipped for, as the test gave
 * it (`context.skip('bsdtar not installed')`), with how many and in which files, so a machine without a tool says
 * what it did not check (README "Run every test"; under CI a missing tool fails the test instead). Tests skipped by a
 * condition (`skipIf`: no build yet, no strace) are counted per file as "no reason given"; none is listed when a
 * name filter (`-t`) left tests out.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** What `skipIf` leaves without a note. */
export const NO_REASON = 'skipped by a condition, no reason given';

/** The lines this reporter prints for `modules`: none when no test was skipped (or `filtered`, none without a note). */
export function skipReasonLines(modules: ReadonlyArray<TestModule>, root: string, filtered = false): string[] {
  const reasons = new Map<string, { count: number; files: Set<string> }>();
  for (const module of modules)
    for (const test of module.children.allTests('skipped')) {
      const result = test.result();
      if (result.state !== 'skipped' || test.options.mode === 'todo') continue;
      if (!result.note && filtered) continue;
      const note = result.note ?? NO_REASON;
      const reason = reasons.get(note) ?? { count: 0, files: new Set<string>() };
      reason.count += 1;
      reason.files.add(relative(root, module.moduleId));
      reasons.set(note, reason);
    }
  if (reasons.size === 0) return [];
  return [
    'Skipped, with their reasons (install what is missing to run them):',
    ...[...reasons]
      .sort(([a], [b]) => (a === NO_REASON ? 1 : b === NO_REASON ? -1 : a.localeCompare(b)))
      .map(
        ([note, { count, files }]) =>
          `  ${note}: ${count} test${count === 1 ? '' : 's'} (${[...files].sort().join(', ')})`,
      ),
  ];
}

export default class SkipReasonsReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = skipReasonLines(modules, process.cwd(), this.filtered);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
