/**
 * `apollia-desktop pack DIR [-o FILE] [--force]`: packs an `.apo` package folder (`apollia.toml`
 * at its root) into a deterministic `.apo` for authors, with node-tar (`archive/pack.ts`).
 *
 * The folder is checked with exactly the rules of `inspect`: the packed bytes are written to a
 * private temp file and `inspectApo` reads that file, so nothing can pass `pack` that `inspect`
 * (and install) would refuse. A refused folder writes nothing and exits 1.
 *
 * Decision, where: `-o FILE`, else `NAME-VERSION.apo` in the current folder, or beside DIR when the
 * current folder is inside DIR; never inside DIR (the next pack would hold this one).
 *
 * Decision, an existing output file: identical bytes are left as they are (exit 0, "unchanged");
 * different bytes are refused (exit 1) unless `--force`, since the file may be a published build
 * whose hash someone recorded. The output is written to a temp file beside it and renamed into
 * place, so a reader never sees half a package.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { packFolder } from '../archive/pack';
import { inspectApo } from '../apollia/index';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';
import { refused } from './cli-data';
import { IGNORE_FILE, packedEntries } from './pack-ignore';
import { type CliIo, EXIT } from './cli-io';
import { formatInspection } from './inspection-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const PACK_USAGE = [
  `Usage: ${PROGRAM} pack DIR [-o FILE] [--force]`,
  '',
  'Packs the package folder DIR (apollia.toml at its root) as a .apo after checking it with the',
  'same rules as inspect. The same folder always gives the same bytes and the same SHA-256.',
  '  -o, --output FILE  Where to write, never inside DIR (default: NAME-VERSION.apo in the current',
  '                     folder, or beside DIR when the current folder is inside it)',
  '  --force            Replace FILE when it exists with different bytes',
  '',
  'Exit status: 0 packed, 1 refused (nothing written), 2 usage error.',
  '',
].join('\n');

/** Writes `bytes` to `target` through a temporary file beside it; null when written, else the refusal's exit code. */
function writeOutput(io: CliIo, target: string, bytes: Buffer): number | null {
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // `-o dist/m.apo` makes `dist/` as needed, as a build tool's output option does.
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(temp, bytes, { flag: 'wx' });
    renameSync(temp, target);
    return null;
  } catch (error) {
    // The temporary file may never have been made (its folder could not be): nothing to clean then.
    try {
      rmSync(temp, { force: true });
    } catch {}
    // Said of the file asked for, never of the hidden temporary one.
    return refused(io, {
      code: 'pack.write_failed',
      message: `${target} could not be written: ${(error as Error).message.replaceAll(temp, target)}; nothing was written`,
      path: '--output',
    });
  }
}

/** Runs `pack` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  const dirs: string[] = [];
  let output: string | undefined;
  let force = false;
  let flagsDone = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!flagsDone && arg === '--') flagsDone = true;
    else if (!flagsDone && (arg === '-h' || arg === '--help')) {
      io.stdout(PACK_USAGE);
      return EXIT.accepted;
    } else if (!flagsDone && (arg === '-o' || arg === '--output')) {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(io, `${arg} needs a FILE`, PACK_USAGE);
      output = value;
    } else if (!flagsDone && arg.startsWith('--output=')) output = arg.slice('--output='.length);
    else if (!flagsDone && arg === '--force') force = true;
    else if (!flagsDone && arg.startsWith('-') && arg !== '-')
      return usageError(io, `unknown option \`${arg}\` for pack`, PACK_USAGE);
    else dirs.push(arg);
  }
  if (dirs.length === 0) return usageError(io, 'pack needs a DIR', PACK_USAGE);
  if (dirs.length > 1) return usageError(io, `pack takes one DIR, got ${dirs.length}`, PACK_USAGE);
  const given = dirs[0] as string;
  const dir = isAbsolute(given) ? given : resolve(io.cwd, given);
  if (!existsSync(dir)) return usageError(io, `no such folder: ${given}`, PACK_USAGE);
  if (!statSync(dir).isDirectory())
    return usageError(
      io,
      `${given} is not a folder: pack takes the package folder (apollia.toml at its root)`,
      PACK_USAGE,
    );

  let bytes: Buffer;
  let leftOut: string[];
  try {
    const packed = packedEntries(dir);
    leftOut = packed.leftOut;
    bytes = packFolder(dir, { entries: packed.entries });
  } catch (error) {
    return refused(io, {
      code: 'source.unreadable',
      message: `the folder ${given} could not be packed: ${(error as Error).message}. Nothing was written`,
    });
  }

  // The very check inspect makes, on the very bytes that will be written.
  const work = mkdtempSync(join(tmpdir(), 'apollia-pack-'));
  let inspection: Awaited<ReturnType<typeof inspectApo>>;
  try {
    const candidate = join(work, 'package.apo');
    writeFileSync(candidate, bytes);
    inspection = await inspectApo(candidate);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!inspection.ok) {
    const first = inspection.errors[0];
    if (io.json && first)
      return refused(io, { code: first.code as RefusalCode, message: first.message, problems: inspection.errors });
    io.stderr(
      `${PROGRAM} pack: the folder ${given} is refused by the checks of inspect; nothing was written.\n\n${formatInspection(inspection)}`,
    );
    return EXIT.refused;
  }

  // The name and version passed the manifest rules (`[a-z0-9_-]+`, SemVer 2): safe in a file name.
  const manifest = inspection.details?.manifest.package;
  const defaultName = manifest ? `${manifest.name}-${manifest.version}.apo` : `${basename(dir)}.apo`;
  // Never inside the folder packed: the next pack would hold this one and give other bytes.
  const inside = (path: string) => {
    const rel = relative(dir, path);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  };
  const target =
    output === undefined
      ? resolve(inside(io.cwd) ? dirname(dir) : io.cwd, defaultName)
      : isAbsolute(output)
        ? output
        : resolve(io.cwd, output);
  if (inside(target))
    return usageError(
      io,
      `the output ${target} would be inside the folder being packed: write it elsewhere (-o ../${basename(target)})`,
      PACK_USAGE,
    );
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  let outcome: 'written' | 'replaced' | 'unchanged' = 'written';
  if (existsSync(target)) {
    if (statSync(target).isDirectory()) {
      return refused(io, { code: 'pack.output_is_folder', message: `${target} is a folder; nothing was written` });
    }
    if (readFileSync(target).equals(bytes)) outcome = 'unchanged';
    else if (!force) {
      return refused(io, {
        code: 'pack.output_exists',
        message: `${target} already exists with other bytes; pass --force to replace it. Nothing was written`,
      });
    } else outcome = 'replaced';
  }
  if (outcome !== 'unchanged') {
    const failed = writeOutput(io, target, bytes);
    if (failed !== null) return failed;
  }

  const files = inspection.details?.files.length ?? 0;
  const warnings = inspection.warnings.map((warning) => `warning: ${warning.message}\n`).join('');
  if (leftOut.length > 0)
    io.stdout(
      `Left out: ${leftOut.join(', ')} (dotfiles, .git/ and what ${IGNORE_FILE} lists are never packed; a line \`!NAME\` in ${IGNORE_FILE} packs one)\n`,
    );
  io.stdout(
    `${warnings}Packed ${manifest ? `${manifest.name} ${manifest.version}` : given}: ${files} files, ${bytes.length} bytes, ${outcome === 'unchanged' ? 'unchanged (the file already holds these bytes)' : outcome}\n${target}\nsha256 ${sha256}\n`,
  );
  return EXIT.accepted;
}
