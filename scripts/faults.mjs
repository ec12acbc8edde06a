#!/usr/bin/env node
/**
 * The kill-point and fault sweep (DESIGN.md "Commit points"): for each command, counts its durable
 * steps against the data folder (every write, fsync, rename, link, unlink, mkdir that names a file
 * in it) under `strace -f` with UV_THREADPOOL_SIZE=1, then runs it again once per step with that
 * step killed (SIGKILL) or failed (EIO, ENOSPC). After each point: the store loads (`list`, or the
 * spec's `check`), the state is the old one or the new one whole, the record holds the change
 * exactly when the state does, the same command again completes or says it is already done and
 * leaves the new state with the change recorded at least once, and no output holds a stack trace.
 * Prints survived/tried per command, and how long it took. The commands and their setups are in
 * `faults-commands.mjs`.
 *
 * Usage: node scripts/faults.mjs [--only CMD[,CMD]] [--faults kill,eio,enospc] [--calls fsync,rename,…]
 *        [--max N] [--json]
 * Needs the built CLI (`npm run build`) and strace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SWEPT, writeFixtures } from './faults-commands.mjs';

export { SWEPT };

const ROOT = new URL('..', import.meta.url).pathname;
const CLI = join(ROOT, 'out/cli/cli.cjs');
const DURABLE = ['write', 'pwrite64', 'fsync', 'fdatasync', 'rename', 'renameat2', 'link', 'unlink', 'mkdir'];
const FAULTS = { kill: 'signal=SIGKILL', eio: 'error=EIO', enospc: 'error=ENOSPC' };
const STACK = /\n\s+at /;
/** A rerun that says it is done: exit 0, or (a removal of what is gone, which keeps no record of it) these words. */
const ALREADY =
  /already (installed|trusted|saved|armed|disarmed|applied)|nothing to do|No package called|no MCP server|not armed|is disarmed|is not followed/i;

function run(argv, env = {}) {
  const r = spawnSync(argv[0], argv.slice(1), {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: '/home/nobody', UV_THREADPOOL_SIZE: '1', ...env },
  });
  return { code: r.status, signal: r.signal, out: `${r.stdout}${r.stderr}` };
}

const cli = (data, args, env = {}) => run([process.execPath, CLI, '--data-dir', data, ...args], env);

/** The environment of a spec's command, its checks and its rerun (not of its setup). */
const envOf = (spec, work) => spec.env?.(work) ?? {};

/**
 * The state with what differs between equal runs (times, ids, sealed bytes) put in words, and
 * without its `record` (the activity record's commit: checked against the record itself).
 */
function stateShape(data) {
  const path = join(data, 'state.json');
  if (!existsSync(path)) return 'none';
  let state;
  try {
    state = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return 'torn';
  }
  delete state.record;
  return JSON.stringify(state, null, 2)
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, 'TIME')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/"[A-Za-z0-9+/=]{40,}"/g, '"SEALED"');
}

const decisionLines = (data) => {
  const path = join(data, 'activity', 'decisions.jsonl');
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
};

function decisionCount(data) {
  return decisionLines(data).length;
}

/** What is wrong with the record against the state: its committed outbox not in the record. */
function recordProblem(data) {
  const path = join(data, 'state.json');
  if (!existsSync(path)) return null;
  let outbox = [];
  try {
    outbox = JSON.parse(readFileSync(path, 'utf8')).record?.outbox ?? [];
  } catch {
    return null;
  }
  const lines = new Set(decisionLines(data));
  return outbox.every((line) => lines.has(line)) ? null : 'committed outbox not in the record';
}

/** Whether the record's lines past `from` are only refusals (an attempt refused by the fault is itself recorded). */
function onlyRefusals(data, from) {
  return decisionLines(data)
    .slice(from)
    .every((line) => {
      try {
        return JSON.parse(line).outcome !== 'ok';
      } catch {
        return false;
      }
    });
}

/** A fresh data folder in the command's old state. */
function prepared(spec, work) {
  const data = join(mkdtempSync(join(work, 'point-')), 'data');
  for (const args of spec.setup(work)) {
    if (typeof args === 'function') {
      args(data, work);
      continue;
    }
    const r = cli(data, args);
    if (r.code !== 0) throw new Error(`setup ${args.join(' ')} failed: ${r.out}`);
  }
  return data;
}

/** The durable steps of a run: [syscall, its ordinal among that thread's calls of it]. */
function durableSteps(spec, work) {
  const data = prepared(spec, work);
  const log = join(work, 'count.log');
  const trace = ['strace', '-f', '-y', '-qq', '-o', log, '-e', `trace=${DURABLE.join(',')}`];
  const r = run([...trace, process.execPath, CLI, '--data-dir', data, ...spec.args(work, data)], envOf(spec, work));
  if (r.code !== 0) throw new Error(`the command failed untouched: ${r.out}`);
  const seen = new Map();
  const steps = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const m = /^(\d+) +(\w+)\((.*)$/.exec(line);
    if (!m) continue;
    const [, pid, call, rest] = m;
    const key = `${pid}:${call}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    if (rest.includes(data)) steps.push({ call, when: n, what: rest.slice(0, 90) });
  }
  rmSync(join(data, '..'), { recursive: true, force: true });
  return steps;
}

/** One point: the step faulted, then every check. Answers null when it held, else what broke. */
function point(spec, work, step, fault, reference) {
  const data = prepared(spec, work);
  const log = join(work, 'point.log');
  const trace = ['strace', '-f', '-y', '-qq', '-o', log, '-e', `trace=${step.call}`];
  const inject = `inject=${step.call}:${FAULTS[fault]}:when=${step.when}`;
  const env = envOf(spec, work);
  const first = run([...trace, '-e', inject, process.execPath, CLI, '--data-dir', data, ...spec.args(work, data)], env);
  // The step the fault struck: the call marked INJECTED, or for a kill the last call before death (`= ?`, or
  // `<unfinished …>` when another thread wrote in between).
  const calls = readFileSync(log, 'utf8')
    .split('\n')
    .filter((l) => new RegExp(`^\\d+ +${step.call}\\(`).test(l));
  const hit =
    fault === 'kill'
      ? calls.findLast((l) => l.includes('<unfinished') || / = \?$/.test(l))
      : calls.find((l) => l.includes('INJECTED'));
  if (!hit?.includes(data)) return 'missed';
  const broke = [];
  if (STACK.test(first.out)) broke.push('stack trace');
  const list = cli(data, spec.check ?? ['list'], env);
  if (list.code !== 0 || STACK.test(list.out)) broke.push(`store does not load: ${list.out.trim()}`);
  const shape = stateShape(data);
  const decisions = decisionCount(data);
  const problem = recordProblem(data);
  if (problem) broke.push(problem);
  // A change that leaves the state as it was (a grant of what was granted) is judged by its record alone.
  if (shape === reference.newShape && decisions >= reference.newDecisions) {
    // new state, change recorded
  } else if (shape === reference.oldShape) {
    if (decisions !== reference.oldDecisions && !onlyRefusals(data, reference.oldDecisions)) broke.push('record torn');
  } else if (shape === reference.newShape) broke.push('new state, change not recorded');
  else broke.push('state neither old nor new');
  const again = cli(data, spec.args(work, data), env);
  if (again.code !== 0 && !ALREADY.test(again.out)) broke.push(`rerun: ${again.out.trim().slice(0, 160)}`);
  if (STACK.test(again.out)) broke.push('rerun stack trace');
  // Whatever the point left, the rerun ends in the new state with the change recorded at least once (a rerun that
  // says it is done writes nothing more; one that makes a second of what the first made, or loses a notice, breaks).
  if (stateShape(data) !== reference.newShape) broke.push('after the rerun, the state is not the new one');
  else if (decisionCount(data) < reference.newDecisions) broke.push('after the rerun, the change is not recorded');
  rmSync(join(data, '..'), { recursive: true, force: true });
  return broke.length === 0 ? null : broke.join('; ');
}

/** Sweeps the named commands; answers per command {survived, tried, missed, failures}. */
export function sweep({
  only = Object.keys(SWEPT),
  faults = Object.keys(FAULTS),
  calls = DURABLE,
  max = Infinity,
  log = () => {},
}) {
  const work = mkdtempSync(join(tmpdir(), 'apollia-faults-'));
  const stopFeed = writeFixtures(work);
  try {
    return sweepIn(work, { only, faults, calls, max, log });
  } finally {
    stopFeed();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The sweep over the fixtures in `work`. */
function sweepIn(work, { only, faults, calls, max, log }) {
  const results = {};
  for (const name of only) {
    const spec = SWEPT[name];
    const old = prepared(spec, work);
    const reference = { oldShape: stateShape(old), oldDecisions: decisionCount(old) };
    cli(old, spec.args(work, old), envOf(spec, work));
    reference.newShape = stateShape(old);
    reference.newDecisions = decisionCount(old);
    const started = Date.now();
    const steps = durableSteps(spec, work)
      .filter((step) => calls.includes(step.call))
      .slice(0, max);
    const result = { survived: 0, tried: 0, missed: 0, failures: [] };
    for (const step of steps) {
      for (const fault of faults) {
        const broke = point(spec, work, step, fault, reference);
        if (broke === 'missed') {
          result.missed++;
          continue;
        }
        result.tried++;
        if (broke === null) result.survived++;
        else result.failures.push(`${fault} at ${step.call}#${step.when} ${step.what}: ${broke}`);
      }
    }
    results[name] = result;
    log(
      `${name}: ${result.survived}/${result.tried} survived (${steps.length} durable steps, ${result.missed} not reached; ${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const value = (flag) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const results = sweep({
    only: value('--only')?.split(','),
    faults: value('--faults')?.split(','),
    calls: value('--calls')?.split(','),
    max: value('--max') ? Number(value('--max')) : Infinity,
    log: (line) => console.log(line),
  });
  if (args.includes('--json')) console.log(JSON.stringify(results, null, 2));
  else for (const [name, r] of Object.entries(results)) for (const f of r.failures) console.log(`  ${name}: ${f}`);
  const all = Object.values(results);
  console.log(`total: ${all.reduce((n, r) => n + r.survived, 0)}/${all.reduce((n, r) => n + r.tried, 0)} survived`);
  process.exitCode = all.every((r) => r.survived === r.tried) ? 0 : 1;
}
