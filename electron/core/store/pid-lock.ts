/**
 * A lock file naming its holder: the one rule behind the store's write lock (`lock.ts`, held for one
 * read-modify-write), the activity record's lock, and the trigger host's lock (`triggers/host-lock.ts`,
 * held for the host's life). DESIGN.md "Commit points", locks: one holder, and no lock outlives it.
 *
 * - The file appears whole or not at all: the holder's line is written to a temp file of its own,
 *   then hard-linked to the lock's name (`link` fails when the name exists, so creation is exclusive
 *   and never shows an empty file).
 * - The line names the pid, the boot (Linux `boot_id`) and the process's start time (`/proc/PID/stat`),
 *   so a pid reused after a reboot or by a later process is not taken for the holder. A lock that is
 *   empty, unreadable, from an earlier boot, or of a process that no longer runs is stale.
 * - A stale lock is removed only by the one process that first creates its gate, a file named after
 *   the stale content's hash (again by `link`): two processes that both saw the same stale lock cannot
 *   both remove it, nor remove the fresh lock another made after it. A gate whose maker died is stale in
 *   its turn and removed by the same rule.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Who holds a lock, as written in its file. */
export interface LockHolder {
  pid: number;
  /** The boot the holder runs in (Linux), or null where the system does not say. */
  boot: string | null;
  /** The holder's start time in clock ticks since boot (Linux), or null. */
  start: string | null;
}

function readBootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

const BOOT = readBootId();

/** The start time of process `pid` (field 22 of `/proc/PID/stat`), or null where there is no /proc. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const SELF: LockHolder = { pid: process.pid, boot: BOOT, start: processStart(process.pid) };

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file's text: `PID boot=ID start=TICKS nonce=HEX`; the nonce makes each take's text unique. */
function holderLine(holder: LockHolder): string {
  return `${holder.pid} boot=${holder.boot ?? '-'} start=${holder.start ?? '-'} nonce=${randomBytes(8).toString('hex')}\n`;
}

/** The holder a lock file's text names; null when it names none (empty, torn, not ours). */
export function parseHolder(text: string): LockHolder | null {
  const match = /^(\d+)(?: boot=(\S+) start=(\S+) nonce=[0-9a-f]+)?\n$/.exec(text);
  if (!match) return null;
  const field = (value: string | undefined) => (value === undefined || value === '-' ? null : value);
  return { pid: Number(match[1]), boot: field(match[2]), start: field(match[3]) };
}

/** Whether the holder still runs: its pid alive, in this boot, started when it says. */
export function holderAlive(holder: LockHolder | null): boolean {
  if (holder === null || !processAlive(holder.pid)) return false;
  if (holder.boot !== null && BOOT !== null && holder.boot !== BOOT) return false;
  if (holder.start !== null) {
    const start = processStart(holder.pid);
    if (start !== null && start !== holder.start) return false;
  }
  return true;
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return ''; // unreadable: names no holder, so stale
  }
}

/** The pid of the live process holding the lock at `path`; null when none does. */
export async function lockPid(path: string): Promise<number | null> {
  const text = await readText(path);
  const holder = text === null ? null : parseHolder(text);
  return holder !== null && holderAlive(holder) ? holder.pid : null;
}

/** Creates `path` holding `text`, whole, only when no file has that name. */
async function linkExclusive(path: string, text: string): Promise<boolean> {
  const temp = join(dirname(path), `${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(temp, text, { mode: 0o600 });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

const gateOf = (lockPath: string, text: string) =>
  `${lockPath}.stale-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;

/**
 * Removes `file` when it still holds the stale `text`, through the gate only one process can make.
 * Answers the live pid that stands in the way (a gate's maker), or null when the caller may retry.
 */
async function removeStale(lockPath: string, file: string, text: string, depth = 0): Promise<number | null> {
  const gate = gateOf(lockPath, text);
  if (!(await linkExclusive(gate, holderLine(SELF)))) {
    const gateText = await readText(gate);
    if (gateText === null) return null;
    const maker = parseHolder(gateText);
    if (holderAlive(maker)) return maker?.pid ?? null;
    if (depth >= 4) return null;
    return removeStale(lockPath, gate, gateText, depth + 1);
  }
  try {
    // Only this gate's maker removes `text`, so it cannot change between the read and the unlink.
    if ((await readText(file)) === text) await unlink(file).catch(() => undefined);
  } finally {
    await unlink(gate).catch(() => undefined);
  }
  return null;
}

/** Removes temp files and gates that killed processes left beside the lock at `path`. */
async function sweepLeftovers(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const file = join(dirname(path), name);
    const temp = /\.(\d+)\.[0-9a-f]{12}\.tmp$/.exec(name);
    if (temp) {
      if (!processAlive(Number(temp[1]))) await unlink(file).catch(() => undefined);
    } else if (rest.startsWith('stale-')) {
      const text = await readText(file);
      if (text !== null && !holderAlive(parseHolder(text))) await unlink(file).catch(() => undefined);
    }
  }
}

/**
 * Takes the lock file at `path` for this process, removing a stale one. Answers whether it was taken
 * and, when not, the pid of the live process in the way (null: a take is under way; try again).
 */
export async function tryTakeLock(path: string): Promise<{ taken: true } | { taken: false; holder: number | null }> {
  const mine = holderLine(SELF);
  for (let attempt = 0; attempt < 6; attempt++) {
    if (await linkExclusive(path, mine)) {
      await sweepLeftovers(path);
      return { taken: true };
    }
    const text = await readText(path);
    if (text === null) continue;
    const holder = parseHolder(text);
    if (holderAlive(holder)) return { taken: false, holder: holder?.pid ?? null };
    const blocker = await removeStale(path, path, text);
    if (blocker !== null) return { taken: false, holder: blocker };
  }
  return { taken: false, holder: null };
}

/** Removes the lock file at `path` when this process holds it. */
export async function releaseLock(path: string): Promise<void> {
  const text = await readText(path);
  const holder = text === null ? null : parseHolder(text);
  if (holder?.pid === SELF.pid && holder.boot === SELF.boot && holder.start === SELF.start)
    await unlink(path).catch(() => undefined);
}
