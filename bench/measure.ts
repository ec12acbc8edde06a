/**
 * Measuring one child process for the benches: wall time here, peak RSS and CPU time from GNU
 * `time` when present (else VmHWM polled from `/proc/<pid>/status`). Figures only: the benches
 * print them, no test asserts them (DESIGN.md "Testing").
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** The repository root: children run there. */
export const ROOT = new URL('..', import.meta.url).pathname;
/** Runs of each case (after one warm-up). */
export const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Whether GNU time is here (peak RSS and CPU time from it). */
export const HAS_GNU_TIME = existsSync('/usr/bin/time');

/** One measured run. */
export interface Sample {
  ms: number;
  /** User + system CPU time (with waited-for children: tar's gzip), NaN without GNU time. */
  cpuMs: number;
  rssMb: number;
  /** The first 4 KiB of standard output. */
  stdout: string;
  lines: number;
}

/**
 * Runs a command once, measuring wall time here and peak RSS with GNU time or VmHWM polling.
 * `exitCodes`: the exit codes that still give a figure (the CLI's `inspect` exits 1 on a refusal).
 */
export function measure(command: string, args: string[], exitCodes: readonly number[] = [0]): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const argv = HAS_GNU_TIME
      ? (['/usr/bin/time', ['-f', '__TIME__ %e %M %U %S', command, ...args]] as const)
      : ([command, args] as const);
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], [...argv[1]], { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    let stdout = '';
    let stderr = '';
    let hwmKb = 0;
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < 4096) stdout += chunk.toString();
      for (const byte of chunk) if (byte === 0x0a) lines++;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const poll = HAS_GNU_TIME
      ? null
      : setInterval(() => {
          try {
            const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (match) hwmKb = Math.max(hwmKb, Number(match[1]));
          } catch {
            // the process has ended
          }
        }, 5);
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (poll) clearInterval(poll);
      const timed = /__TIME__ [\d.]+ (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
      if (timed) hwmKb = Number(timed[1]);
      const cpuMs = timed ? (Number(timed[2]) + Number(timed[3])) * 1000 : NaN;
      if (!exitCodes.includes(code ?? -1)) {
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
        return;
      }
      resolve({ ms, cpuMs, rssMb: hwmKb / 1024, stdout, lines });
    });
  });
}

/** The median of some figures (the upper one of an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}
