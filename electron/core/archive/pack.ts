/**
 * `packFolder`: writes a folder as a deterministic `.apo` with node-tar, the tar writer the
 * ecosystem uses (npm pack). The same folder always gives the same bytes, so the same SHA-256:
 * an author can publish the hash, and anyone can repack the folder to check it.
 *
 * node-tar is used as a WRITER only: as a reader of untrusted archives it would lose refusals the
 * scanner in `tar-scanner.ts` makes (see this module's README, "node-tar").
 *
 * What makes the bytes deterministic:
 * - entries sorted by their `/`-separated path (code unit order), folders included, no `./`;
 * - one fixed mtime ({@link PACK_MTIME}), no atime/ctime, uid/gid 0, no user or group names
 *   (node-tar `portable`);
 * - modes normalised to what install keeps: files 0644, or 0755 when any execute bit is set;
 *   folders 0755 (so neither the umask nor a group-write bit changes the bytes);
 * - gzip through node-tar's `portable` gzip (no name or time in its header, OS byte 255).
 * The bytes are the same for the same Node.js (its bundled zlib): a zlib upgrade may deflate
 * differently, which changes the file but not the tar inside it.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { create, type WriteEntry } from 'tar';

/** The mtime of every entry: npm's choice (1985-10-26T08:15:00Z), not 0, which some tools treat as missing. */
export const PACK_MTIME = new Date('1985-10-26T08:15:00.000Z');

/**
 * Every path below `dir`, `/`-separated and relative, sorted; folders included, links and specials too (inspect refuses
 * them).
 */
export function packEntries(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    const names = readdirSync(relative === '' ? dir : join(dir, relative)).sort();
    for (const name of names) {
      const rel = relative === '' ? name : `${relative}/${name}`;
      out.push(rel);
      // lstat: a link is packed as a link (and refused by the checks), never followed.
      if (lstatSync(join(dir, rel)).isDirectory()) walk(rel);
    }
  };
  walk('');
  return out.sort();
}

function normaliseMode(entry: WriteEntry): void {
  const stat = entry.stat as { mode: number; isDirectory(): boolean } | undefined;
  if (!stat) return;
  const type = stat.mode & 0o170000;
  const executable = stat.isDirectory() || (stat.mode & 0o111) !== 0;
  stat.mode = type | (executable ? 0o755 : 0o644);
}

/**
 * Packs the folder `dir` as `.apo` bytes (gzip'd tar; plain tar with `gzip: false`), the package at
 * the archive root or, with `prefix: 'name/'`, inside one top folder. Synchronous (node-tar's sync
 * writer): packing is a one-shot command, and tests build fixtures with it. Writes nothing; the
 * caller checks the bytes (`pack-command.ts` runs inspect on them) before saving them.
 */
export function packFolder(
  dir: string,
  options: { gzip?: boolean; prefix?: string; entries?: readonly string[] } = {},
): Buffer {
  // `entries`: the paths to pack (the `pack` command's, with what it leaves out taken off), sorted as packEntries sorts.
  const entries = options.entries ? [...options.entries].sort() : packEntries(dir);
  const stream = create(
    {
      sync: true,
      cwd: dir,
      gzip: options.gzip === false ? false : { level: 9 },
      portable: true,
      mtime: PACK_MTIME,
      noDirRecurse: true,
      strict: true,
      onWriteEntry: normaliseMode,
      ...(options.prefix ? { prefix: options.prefix } : {}),
    },
    entries,
  );
  const bytes = stream.read() as Buffer | null;
  return bytes ?? Buffer.alloc(0);
}
