/**
 * Fixture packages for the specs, packed into a temp folder the way `apollia-os package build`
 * would (test/helpers/pack.ts), so the app opens real `.apo` files.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manyToolName, manyToolsManifest, manyToolsModule } from '../../test/helpers/many-tools';
import { folderEntries, INVOICES_DIR, packFiles, packFolder } from '../../test/helpers/pack';
import { REPO_ROOT } from './electron-binary';

/** The e2e fixture packages (folders under `e2e/fixtures/apo/`). */
export const E2E_FIXTURES = join(REPO_ROOT, 'e2e', 'fixtures', 'apo');

const scratch = () => mkdtempSync(join(tmpdir(), 'apollia-e2e-pkg-'));

/** A packed `.apo` on disk and its SHA-256. */
export interface PackedFile {
  path: string;
  sha256: string;
}

function write(bytes: Buffer, fileName: string): PackedFile {
  const path = join(scratch(), fileName);
  writeFileSync(path, bytes);
  return { path, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The spec's complete example, `invoices` 1.2.0. */
export function packInvoices(fileName = 'invoices-1.2.0.apo'): PackedFile {
  return write(packFolder(INVOICES_DIR), fileName);
}

/** A folder under `e2e/fixtures/apo/`, packed. */
export function packFixture(name: string, fileName = `${name}.apo`): PackedFile {
  return write(packFolder(join(E2E_FIXTURES, name)), fileName);
}

/** The package folder `dir` with its `apollia.toml` changed by `edit`, packed as `fileName`. */
function packFolderWith(dir: string, edit: (toml: string) => string, fileName: string): PackedFile {
  const files: Record<string, string> = {};
  for (const entry of folderEntries(dir)) {
    if (entry.type === 'dir' || entry.name.endsWith('/')) continue;
    files[entry.name] = Buffer.from(entry.body ?? []).toString('utf8');
  }
  files['apollia.toml'] = edit(readFileSync(join(dir, 'apollia.toml'), 'utf8'));
  return packFileSet(files, fileName);
}

/** The invoices example with `apollia.toml` changed by `edit` (for refused and spoofed packages). */
export function packInvoicesWith(edit: (toml: string) => string, fileName: string): PackedFile {
  return packFolderWith(INVOICES_DIR, edit, fileName);
}

/** A folder under `e2e/fixtures/apo/` with its `apollia.toml` changed by `edit` (a next version, a changed trigger). */
export function packFixtureWith(name: string, edit: (toml: string) => string, fileName: string): PackedFile {
  return packFolderWith(join(E2E_FIXTURES, name), edit, fileName);
}

/** A package made of `files` (path → text), packed as `fileName`. */
export function packFileSet(files: Record<string, string>, fileName: string): PackedFile {
  return write(packFiles(files), fileName);
}

/** `many-tools` 1.0.0: `count` tools, one module each, all offered to its one agent; the packed file's path. */
export function packManyTools(count: number): string {
  const files: Record<string, string> = { 'apollia.toml': manyToolsManifest('many-tools', count) };
  for (let i = 0; i < count; i++) files[`tools/${manyToolName(i)}.py`] = manyToolsModule(manyToolName(i));
  return packFileSet(files, 'many-tools-1.0.0.apo').path;
}

/** A fresh empty folder (for a file_watch trigger to watch). */
export function makeFolder(name: string): string {
  const path = join(scratch(), name);
  mkdirSync(path, { recursive: true });
  return path;
}
