/**
 * The registry of opened sources and picked folders, known only to the main process: the renderer
 * refers to each by an unguessable id (`crypto.randomUUID`), never by a path (DESIGN.md "Security").
 * A source's kind is decided once, at registration, by `sourceKindOf` (the CLI's `inspect` asks the
 * same function). The registry also keeps what each source last showed the user, which install and
 * apply check against.
 */
import { checkApo, checkPluginManifest, checkTemplateFolder } from '../bounded';
import { createHash, randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute } from 'node:path';
import type { ApiResult, SourceHandle } from '../../../shared/contract/api';
import type { ApoInspection, Inspection } from '../../../shared/manifests/inspection';
import { CoreError } from '../errors/index';
import type { TrustedKey } from '../trust/index';
import { notAPackage, type SourceKind, sourceKindOf } from '../archive/source-kind';
import { feedSignedSummary, type FeedOrigin } from './feed-origin';

/** An opened input. */
export interface Source {
  handle: SourceHandle;
  path: string;
  /** `path` with links resolved: two opens of one file compare equal by it. */
  canonicalPath: string;
  /** The kind `sourceKindOf` decided; `handle.kind` shows a source that is not a package as an `.apo` attempt. */
  kind: SourceKind;
  /**
   * For a template: the digest of the bytes last shown to the user (by `inspect` or `previewApply`).
   * Apply re-reads the folder and makes nothing unless it still holds exactly these bytes.
   */
  shownDigest?: string;
  /**
   * For an `.apo`: the last `inspect`'s answer, what the consent form showed. Install extracts only
   * bytes with its SHA-256 (DESIGN.md "Install extracts only from what inspection verified"), so the
   * archive is not checked a second time before extraction, and a file swapped since is refused.
   */
  shownApo?: ApoInspection;
  /**
   * For an archive opened from a publisher's feed: the feed and what its key signed. Its inspection's
   * signature is the feed's (`feedSignedSummary`), and its install records the feed followed.
   */
  feed?: FeedOrigin;
}

/** SHA-256 over a template's files (sorted paths, lengths and bytes): equal digests, the same folder content. */
export function templateDigest(files: ReadonlyMap<string, Uint8Array>): string {
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort()) {
    const bytes = files.get(path) as Uint8Array;
    hash.update(`${path}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Opened sources and picked folders of one Api instance, by id. */
export class SourceRegistry {
  private readonly sources = new Map<string, Source>();
  private readonly folders = new Map<string, string>();

  /** Opens `path` (absolute, existing) as a source; its handle, or `source.not_found` / `source.unreadable`. */
  async register(path: string, origin: SourceHandle['origin']): Promise<ApiResult<SourceHandle>> {
    try {
      if (typeof path !== 'string' || !isAbsolute(path))
        return {
          ok: false,
          error: {
            code: 'source.not_found',
            message: 'Only an absolute path to a file or folder on this computer can be opened.',
          },
        };
      if (!(await exists(path)))
        return {
          ok: false,
          error: { code: 'source.not_found', message: `${basename(path)} does not exist (any more).` },
        };
      // The same file or folder opened again is the same source (its tab is focused, not copied).
      const canonical = await realpath(path);
      const earlier = [...this.sources.values()].find((src) => src.canonicalPath === canonical);
      if (earlier) return { ok: true, value: earlier.handle };
      const kind = await sourceKindOf(path);
      const folders =
        origin === 'builtin'
          ? []
          : dirname(path)
              .split(/[\\/]/)
              .filter((part) => part !== '');
      const handle: SourceHandle = {
        id: randomUUID(),
        kind: kind === 'not_a_package' ? 'apo' : kind,
        displayName: basename(path),
        folders,
        origin,
      };
      this.sources.set(handle.id, { handle, path, kind, canonicalPath: canonical });
      return { ok: true, value: handle };
    } catch (error) {
      return {
        ok: false,
        error: {
          code: 'source.unreadable',
          message: `${basename(path)} could not be read: ${error instanceof Error ? error.message : String(error)}`,
        },
      };
    }
  }

  /** Whether an open source reads `path` (a feed's staged download is not swept while its form is open). */
  uses(path: string): boolean {
    return [...this.sources.values()].some((src) => src.path === path);
  }

  /** The source with this id, or `source.unknown`. */
  get(id: string): Source {
    const found = this.sources.get(id);
    if (!found) throw new CoreError('source.unknown', 'That file or folder is not open any more: open it again.');
    return found;
  }

  /** Remembers a folder the user picked; its id. */
  addFolder(path: string): string {
    const folderId = randomUUID();
    this.folders.set(folderId, path);
    return folderId;
  }

  /** The picked folder with this id, or `folder.unknown`. */
  folder(id: string): string {
    const found = this.folders.get(id);
    if (!found) throw new CoreError('folder.unknown', 'That folder was not picked in this session: pick it again.');
    return found;
  }
}

/**
 * Inspects a source by its kind, keeping what the user is shown (an `.apo`'s answer with its signature state against
 * `trustedKeys`, a template's digest).
 */
export async function inspectSource(
  src: Source,
  trustedKeys: readonly TrustedKey[] = [],
  pinnedKeys: readonly string[] = [],
): Promise<Inspection> {
  if (src.kind === 'apo' || src.kind === 'not_a_package') {
    // A source that is not a package is an `.apo` attempt refused: install answers `install.refused` with this reason.
    const inspection = (
      src.kind === 'apo'
        ? await checkApo(src.path, trustedKeys, undefined, pinnedKeys)
        : notAPackage(src.handle.displayName)
    ) as ApoInspection;
    // An archive from a verified feed is as signed as the feed: its key signed these bytes' SHA-256.
    if (src.feed && inspection.summary)
      inspection.summary.signature = feedSignedSummary(
        src.feed,
        inspection.summary.sha256,
        inspection.summary.signature,
      );
    src.shownApo = inspection;
    return inspection;
  }
  if (src.kind === 'template') {
    const read = await checkTemplateFolder(src.path);
    if (read.inspection.ok) src.shownDigest = templateDigest(read.files);
    return read.inspection;
  }
  return checkPluginManifest(src.path);
}
