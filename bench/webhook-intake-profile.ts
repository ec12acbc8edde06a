/**
 * Where the webhook intake bench's time goes (`bench/webhook-intake.ts`): the CPU time of each thread of this
 * process and of the stand-in runtime while the deliveries are sent (Linux: `/proc`), and, with
 * `WEBHOOK_BENCH_PROFILE=1`, the main thread's CPU time per delivery by stage, from V8's sampling profiler (it slows
 * the host a little: the figures of a profiled run are for where the time goes, not for the ratio).
 *
 * A sample's stage is the innermost frame of its stack that is the app's own code, by file (the signature check, the
 * policy read, the journal, the activity record...), or Node's HTTP client (`_http_client`, `_http_agent`: the bench's
 * sender) or server (`_http_server`, what parses a request and calls the listener); what is left is the garbage
 * collector, idle time and other Node internals (sockets, streams, timers). Then the functions of most self time (a
 * sample's own frame; `WEBHOOK_BENCH_TOP`, 30). `WEBHOOK_BENCH_CPUPROFILE=<prefix>` keeps each round's profile.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/** CPU time (ms) of every thread of this process by OS thread id, and of another process by pid. */
export function threadTimes(): Map<number, number> {
  const times = new Map<number, number>();
  try {
    for (const tid of readdirSync('/proc/self/task')) times.set(Number(tid), cpuMsOf(`/proc/self/task/${tid}/stat`));
  } catch {
    // Not Linux: no per-thread figures.
  }
  return times;
}

/**
 * The whole machine's busy CPU time so far (Linux `/proc/stat`, every core: everything but idle and I/O wait), in ms.
 * Read before and after a round, it is what the round cost the machine: the sender, the server or host and all its
 * threads, the runtime, the kernel's own threads (the file system's journal, the disk's queue), and whatever else ran
 * (a shared machine's noise: the figure errs high, never low). 0 when it cannot be read.
 */
export function machineBusyMs(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal: clock ticks (100 a second).
    return cpu.slice(0, 8).reduce((sum, ticks, i) => (i === 3 || i === 4 ? sum : sum + (ticks || 0)), 0) * 10;
  } catch {
    return 0;
  }
}

/** utime + stime of a `/proc/…/stat` file, in ms (0 when it cannot be read). */
export function cpuMsOf(statPath: string): number {
  try {
    const fields = readFileSync(statPath, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // Fields 14 and 15 of stat (utime, stime), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) || 0) + (Number(fields[12]) || 0)) * 10;
  } catch {
    return 0;
  }
}

/** What each thread spent between two {@link threadTimes}, named: the main thread, the host's worker threads (new since `before`), the rest. */
export function threadSpend(
  known: ReadonlySet<number>,
  before: Map<number, number>,
  after: Map<number, number>,
): { main: number; workers: number[]; others: number } {
  const spent = (tid: number) => (after.get(tid) ?? 0) - (before.get(tid) ?? 0);
  const workers: number[] = [];
  let others = 0;
  for (const tid of after.keys()) {
    if (tid === process.pid) continue;
    if (!known.has(tid)) workers.push(spent(tid));
    else others += spent(tid);
  }
  return { main: spent(process.pid), workers: workers.sort((a, b) => b - a), others };
}

/** The stages a main-thread sample is counted in (see the module comment). */
const STAGES: [RegExp, string][] = [
  [/triggers\/standard-webhooks/, 'signature check (HMAC)'],
  [/triggers\/webhook-listener/, 'door (listener: headers, body, answer)'],
  [/core\/policy\/|triggers\/fire-gate/, 'policy and integrity gate'],
  [/core\/activity\/|triggers\/activity-/, 'activity record'],
  [/triggers\/intake-journal/, 'intake journal (frame, write)'],
  [/triggers\/run-requests/, 'run request (serialize, hand-off)'],
  [/triggers\/run-files|store\/durable-folder/, 'run files (to the worker threads)'],
  [/triggers\/waiting-runs/, 'runs waiting (count)'],
  [/triggers\/(webhook-intake|seen-ids|noise-tally)/, 'intake (replay store, answer, status)'],
  [/triggers\/(trigger-fires|trigger-host|host-status)/, 'fire path and host'],
  [/store\/|secrets\//, 'store'],
  [/\/bench\//, 'bench sender (its JavaScript)'],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number };
  children?: number[];
}

/** The sampling interval (µs). */
const INTERVAL_US = 100;

/**
 * The time a sample stands for: the wall time since the one before, but at most two intervals. On a shared machine
 * the thread is often descheduled between two samples (the next one lands on whatever it resumed in, most often a
 * call that woke another thread: a `postMessage`, an fs call handed to the pool); uncapped, that wait counted as that
 * function's CPU time.
 */
const sampleUs = (profile: CpuProfile, i: number) => Math.min(profile.timeDeltas[i] ?? 0, 2 * INTERVAL_US);

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The stage of a stack (innermost frame first), see the module comment. */
function stageOf(stack: ProfileNode[]): string {
  const leaf = stack[0]?.callFrame.functionName ?? '';
  if (leaf === '(idle)') return '(idle)';
  if (leaf === '(garbage collector)') return 'garbage collector';
  for (const node of stack) {
    const url = node.callFrame.url;
    if (/_http_client|_http_agent/.test(url)) return 'HTTP sender (the bench client: Node, and its callbacks)';
    if (/_http_server/.test(url)) return 'HTTP server (Node)';
    if (url.includes('node_modules') || !/\/(electron|bench)\//.test(url)) continue;
    for (const [pattern, stage] of STAGES) if (pattern.test(url)) return stage;
    return 'other app code';
  }
  return leaf === '(program)' ? '(program: V8, native)' : 'other Node internals (sockets, streams, timers)';
}

/** How many functions the profile's list of self times shows. */
const TOP_FUNCTIONS = Number(process.env.WEBHOOK_BENCH_TOP ?? 30);

/** Microseconds of main-thread CPU by function (its name, file and line: a sample's own frame) in `profile`. */
export function selfTimesOf(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const file = frame.url.replace(/^.*\/(node_modules\/|electron\/|bench\/)/, '$1').replace(/^node:/, '');
    const name = `${frame.functionName || '(anonymous)'} ${file}:${(frame.lineNumber ?? 0) + 1}`;
    times.set(name, (times.get(name) ?? 0) + sampleUs(profile, i));
  });
  return times;
}

/** Microseconds of main-thread CPU by stage in `profile`. */
export function stagesOf(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageById = new Map<number, string>();
  const stages = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    let stage = stageById.get(id);
    if (stage === undefined) {
      const stack: ProfileNode[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const node = byId.get(at);
        if (node) stack.push(node);
      }
      stage = stageOf(stack);
      stageById.set(id, stage);
    }
    stages.set(stage, (stages.get(stage) ?? 0) + sampleUs(profile, i));
  });
  return stages;
}

/** The main thread's sampling profiler, on while the host rounds send (`WEBHOOK_BENCH_PROFILE=1`). */
export class StageProfiler {
  private readonly session = new Session();
  readonly totals = new Map<string, number>();
  /** Self time (µs) by function (`name file:line`), for the top of the list. */
  readonly selfTimes = new Map<string, number>();
  deliveries = 0;

  async start(): Promise<void> {
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: INTERVAL_US });
    await this.session.post('Profiler.start');
  }

  /** Stops the profiler and adds its stages to the totals, for `deliveries` more deliveries. */
  async stop(deliveries: number): Promise<void> {
    const { profile } = (await this.session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    // `WEBHOOK_BENCH_CPUPROFILE=<path prefix>`: each host round's profile kept, for Chrome's DevTools or a script.
    const keep = process.env.WEBHOOK_BENCH_CPUPROFILE;
    if (keep) writeFileSync(`${keep}.${this.deliveries}.cpuprofile`, JSON.stringify(profile));
    for (const [stage, us] of stagesOf(profile)) this.totals.set(stage, (this.totals.get(stage) ?? 0) + us);
    for (const [fn, us] of selfTimesOf(profile)) this.selfTimes.set(fn, (this.selfTimes.get(fn) ?? 0) + us);
    this.deliveries += deliveries;
    this.session.disconnect();
  }

  /** The stages, largest first: µs per delivery and share of the main thread's time. */
  print(): void {
    const all = [...this.totals.values()].reduce((sum, us) => sum + us, 0);
    const busy = [...this.totals].filter(([stage]) => stage !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
    console.log(
      `\nmain thread by stage while the host rounds sent (WEBHOOK_BENCH_PROFILE=1, sampled every ${INTERVAL_US} µs, each sample at most ${2 * INTERVAL_US} µs; ${this.deliveries} deliveries; ${(busy / this.deliveries).toFixed(0)} µs busy per delivery):`,
    );
    for (const [stage, us] of [...this.totals].sort((a, b) => b[1] - a[1]))
      console.log(
        `  ${(us / this.deliveries).toFixed(1).padStart(7)} µs per delivery  ${((us / all) * 100).toFixed(1).padStart(5)}%  ${stage}`,
      );
    console.log('top functions by self time (µs per delivery):');
    for (const [fn, us] of [...this.selfTimes].sort((a, b) => b[1] - a[1]).slice(0, TOP_FUNCTIONS))
      console.log(`  ${(us / this.deliveries).toFixed(1).padStart(7)}  ${fn}`);
  }
}
