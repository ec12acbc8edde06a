import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'shared/**/*.test.ts',
      'electron/**/*.test.ts',
      'test/**/*.test.ts',
      'resources/**/*.test.ts',
      'renderer/**/*.test.ts',
    ],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    // Budgets, not timed assertions: CI and build machines are 2 shared cores.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on CI's 2 cores, where most of the run waits on
    // child processes and disks (the kill-point and CLI tests), not CPU. On one 2-core machine the run took 696 s with
    // one worker, 369 s with two (415 s with a busy loop beside it, green).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The default report, then why tests were skipped (a tool missing on this machine), each reason once.
    reporters: ['default', './test/skip-reasons-reporter.ts'],
  },
});
