/**
 * Bench inputs, generated once into `bench/.cache/` (gitignored): a large VALID package (≥ 128 MiB
 * uncompressed, hundreds of files, mostly non-Python data of realistic partly compressible content,
 * a few Python modules whose tools the manifest describes), the spec's example, and a 1 GiB gzip bomb.
 */
import { createWriteStream, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { INVOICES_DIR, packFolder, TAR_END, tarData, tarHeader } from '../test/helpers/pack';
import { writeZeroBomb } from '../test/fixtures/archive/raw-tar';

/** Where generated inputs live. */
export const CACHE_DIR = new URL('./.cache/', import.meta.url).pathname;
const MiB = 1024 * 1024;
/** Bump when the generated content changes, so stale caches are rebuilt. */
const LARGE_VERSION = 1;

/** A small deterministic PRNG (xorshift32): the same package on every machine and run. */
function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}

const WORDS =
  'invoice supplier total due paid late reminder amount currency EUR USD GBP net gross tax vat account ledger entry credit debit balance march april may june'.split(
    ' ',
  );

/** CSV rows: repetitive like real exports, compresses about 4:1. */
function csvFile(random: () => number, bytes: number): Buffer {
  const lines: string[] = ['id,date,supplier,description,amount,currency,status'];
  let size = lines[0]!.length + 1;
  for (let id = 1; size < bytes; id++) {
    const line = `${id},2026-${String((random() % 12) + 1).padStart(2, '0')}-${String((random() % 28) + 1).padStart(2, '0')},Supplier ${random() % 500},${WORDS[random() % WORDS.length]} ${WORDS[random() % WORDS.length]} ${WORDS[random() % WORDS.length]},${(random() % 1_000_000) / 100},${WORDS[9 + (random() % 3)]},${random() % 3 === 0 ? 'late' : 'paid'}`;
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(lines.join('\n')).subarray(0, bytes);
}

/** Binary data such as images or PDFs: already compressed, so incompressible. */
function binaryFile(random: () => number, bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  for (let i = 0; i + 4 <= bytes; i += 4) out.writeUInt32LE(random(), i);
  return out;
}

const TOOLS = ['parse_invoice', 'match_supplier', 'compute_totals', 'flag_late', 'export_ledger'];

function manifest(): string {
  const tools = TOOLS.map(
    (name, i) =>
      `[[tools]]\nname = "${name}"\nmodule = "tools/${name}.py"\ndescription = "Bench tool ${i}."\naction = "${i === 4 ? 'write_or_delete' : 'read_personal'}"\n`,
  ).join('\n');
  return `[package]\nname = "bench-ledger"\nversion = "1.0.0"\npublisher = "Bench"\ndescription = "A large package for the bench."\nsdk = ">=0.3, <0.4"\n\n${tools}`;
}

function pythonModule(name: string): string {
  return `"""Bench module ${name}."""\nfrom apollia import tool\n\n\ndef _helper(rows):\n    return [row for row in rows if row]\n\n\n@tool\ndef ${name}(path: str) -> dict:\n    """Does ${name}."""\n    return {"rows": len(_helper(open(path).read().splitlines()))}\n`;
}

/**
 * The large package: 480 data files (2/3 CSV text, 1/3 binary) of 64 KiB to 560 KiB, plus the
 * manifest and five modules; about 140 MiB uncompressed, gzip'd at the default level.
 */
export async function largePackage(): Promise<string> {
  const path = join(CACHE_DIR, `large-v${LARGE_VERSION}.apo`);
  let total = 0;
  await cachedTarGz(path, async ({ file, dir }) => {
    const random = prng(42);
    await file('apollia.toml', Buffer.from(manifest()));
    await dir('tools/');
    for (const name of TOOLS) await file(`tools/${name}.py`, Buffer.from(pythonModule(name)));
    for (let folder = 0; folder < 12; folder++) {
      await dir(`data/part-${folder}/`);
      for (let i = 0; i < 40; i++) {
        const size = (64 + (random() % 496)) * 1024;
        const binary = (folder * 40 + i) % 3 === 2;
        await file(
          `data/part-${folder}/${binary ? `scan-${i}.bin` : `ledger-${i}.csv`}`,
          binary ? binaryFile(random, size) : csvFile(random, size),
        );
        total += size;
      }
    }
  });
  if (total > 0 && total < 128 * MiB) throw new Error(`generated package is only ${total} bytes`);
  return path;
}

/** Writes entries into a tar stream. */
export interface TarWriter {
  file(name: string, body: Buffer): Promise<void>;
  dir(name: string): Promise<void>;
}

/**
 * A gzip'd tar at `path`, generated once (kept in `bench/.cache/`), streamed so a large one never
 * sits in memory; written to `<path>.partial` and renamed, so an interrupted run leaves no half file.
 */
export async function cachedTarGz(path: string, entries: (tar: TarWriter) => Promise<void>): Promise<string> {
  if (existsSync(path)) return path;
  mkdirSync(CACHE_DIR, { recursive: true });
  const temp = `${path}.partial`;
  const gzip = createGzip({ chunkSize: MiB });
  const out = createWriteStream(temp);
  gzip.pipe(out);
  const write = async (chunk: Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  await entries({
    file: async (name, body) => {
      await write(tarHeader({ name, size: body.length, typeflag: '0' }));
      await write(tarData(body));
    },
    dir: (name) => write(tarHeader({ name, size: 0, typeflag: '5' })),
  });
  await write(TAR_END);
  gzip.end();
  await once(out, 'close');
  renameSync(temp, path);
  return path;
}

/** The spec's complete example, gzip'd. */
export function invoicesPackage(): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, 'invoices.apo');
  writeFileSync(path, packFolder(INVOICES_DIR));
  return path;
}

/** A gzip'd tar whose second entry declares 1 GiB of zeros (about 1 MiB on disk). */
export async function gibBomb(): Promise<string> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, 'bomb-1gib.apo');
  if (!existsSync(path)) await writeZeroBomb(path, [{ name: 'data/zeros.bin', size: 1024 * MiB }]);
  return path;
}
