/**
 * A Vitest reporter beside the default one: at the end of a run, each reason tests were skipped for, as the test gave
 * it (`context.skip('bsdtar not installed')`), with how many and in which files, so a machine without a tool says
 * what it did not check (README "Run every test"; under CI a missing tool fails the test instead). Tests left out by
 * a filter (`-t`) or `skipIf` give no reason and are not listed.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** The lines this reporter prints for `modules`: none when no test was skipped with a reason. */
export function skipReasonLines(modules: ReadonlyArray<TestModule>, root: string): string[] {
  const reasons = new Map<string, { count: number; files: Set<string> }>();
  for (const module of modules)
    for (const test of module.children.allTests('skipped')) {
      const result = test.result();
      if (result.state !== 'skipped' || !result.note) continue;
      const reason = reasons.get(result.note) ?? { count: 0, files: new Set<string>() };
      reason.count += 1;
      reason.files.add(relative(root, module.moduleId));
      reasons.set(result.note, reason);
    }
  if (reasons.size === 0) return [];
  return [
    'Skipped, with their reasons (install what is missing to run them):',
    ...[...reasons]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([note, { count, files }]) =>
          `  ${note}: ${count} test${count === 1 ? '' : 's'} (${[...files].sort().join(', ')})`,
      ),
  ];
}

export default class SkipReasonsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const lines = skipReasonLines(modules, process.cwd());
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
