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
    // The default report, then why tests were skipped (a tool missing on this machine), each reason once.
    reporters: ['default', './test/skip-reasons-reporter.ts'],
  },
});
