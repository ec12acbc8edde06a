/**
 * Test helper: packs a folder, or an in-memory map of files, into `.apo` bytes with the app's own
 * `apollia-desktop pack` writer (node-tar, `electron/core/archive/pack.ts`). Used by unit tests,
 * the bench and e2e fixtures. The raw builders below (`tarHeader`, `paxHeader`, `buildTar`) stay
 * for what no sound writer makes: hostile and malformed archives.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { packFolder as packWithNodeTar } from '../../electron/core/archive/pack';

/** One tar entry to write. Directories end with `/` or have `type: 'dir'`. */
export interface TarEntrySpec {
  name: string;
  body?: string | Uint8Array;
  type?: 'file' | 'dir' | 'symlink' | 'hardlink' | 'fifo' | 'chardev' | 'blockdev';
  linkname?: string;
  mode?: number;
  /** Declared size in the header, when a test wants it to differ from the body. */
  size?: number;
}

const TYPEFLAG = { file: '0', hardlink: '1', symlink: '2', chardev: '3', blockdev: '4', dir: '5', fifo: '6' } as const;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

/** A raw 512-byte ustar header (names up to 100 bytes; use `pax` for longer ones). */
export function tarHeader(spec: {
  name: string;
  size: number;
  typeflag: string;
  mode?: number;
  linkname?: string;
  prefix?: string;
}): Buffer {
  const block = Buffer.alloc(512);
  block.write(spec.name, 0, 100, 'utf8');
  block.write(octal(spec.mode ?? (spec.typeflag === '5' ? 0o755 : 0o644), 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(spec.size, 12), 124, 'ascii');
  block.write(octal(1_700_000_000, 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(spec.typeflag, 156, 'ascii');
  if (spec.linkname) block.write(spec.linkname, 157, 100, 'utf8');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  if (spec.prefix) block.write(spec.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(octal(sum, 7) + ' ', 148, 'ascii');
  return block;
}

/** Pads data to a whole number of 512-byte blocks. */
export function tarData(body: Uint8Array): Buffer {
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  padded.set(body);
  return padded;
}

/** A PAX extended header (`x`, or `g` for global) carrying `records`. */
export function paxHeader(records: Record<string, string>, typeflag: 'x' | 'g' = 'x'): Buffer {
  let text = '';
  for (const [key, value] of Object.entries(records)) {
    const base = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(base) + 1;
    while (String(length).length + Buffer.byteLength(base) !== length)
      length = String(length).length + Buffer.byteLength(base);
    text += `${length}${base}`;
  }
  const body = Buffer.from(text, 'utf8');
  return Buffer.concat([tarHeader({ name: 'PaxHeader', size: body.length, typeflag }), tarData(body)]);
}

/** The two zero blocks that end a tar archive. */
export const TAR_END = Buffer.alloc(1024);

/** Builds tar bytes from entry specs, exactly as given (no normalisation: tests use it for hostile input). */
export function buildTar(entries: TarEntrySpec[], options: { end?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? (entry.name.endsWith('/') ? 'dir' : 'file');
    const body = typeof entry.body === 'string' ? Buffer.from(entry.body, 'utf8') : Buffer.from(entry.body ?? []);
    parts.push(
      tarHeader({
        name: entry.name,
        size: entry.size ?? (type === 'file' ? body.length : 0),
        typeflag: TYPEFLAG[type],
        mode: entry.mode,
        linkname: entry.linkname,
      }),
    );
    if (type === 'file' && body.length > 0) parts.push(tarData(body));
  }
  if (options.end !== false) parts.push(TAR_END);
  return Buffer.concat(parts);
}

/** Every file and folder under `dir`, as tar entry specs with `/`-separated relative names, sorted. */
export function folderEntries(dir: string, prefix = ''): TarEntrySpec[] {
  const out: TarEntrySpec[] = [];
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const full = join(current, name);
      const rel = prefix + relative(dir, full).split(sep).join('/');
      if (statSync(full).isDirectory()) {
        out.push({ name: `${rel}/`, type: 'dir' });
        walk(full);
      } else {
        out.push({ name: rel, body: readFileSync(full) });
      }
    }
  };
  walk(dir);
  return out;
}

/** Packs a folder as `.apo` bytes (`apollia-desktop pack`'s writer); `gzip: true` (the default) for a gzip'd tar. */
export function packFolder(dir: string, options: { gzip?: boolean; prefix?: string } = {}): Buffer {
  return packWithNodeTar(dir, options);
}

/** Packs an in-memory map of `path → text` as `.apo` bytes: written to a temp folder, then packed as a folder. */
export function packFiles(files: Record<string, string>, options: { gzip?: boolean } = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'apollia-pack-'));
  try {
    for (const [name, body] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), body);
    }
    return packWithNodeTar(dir, options);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The spec's complete example (`invoices` 1.2.0) as a folder path. */
export const INVOICES_DIR = new URL('../fixtures/apo/invoices', import.meta.url).pathname;
