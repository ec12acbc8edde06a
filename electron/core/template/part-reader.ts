/**
 * The package's files as the checks of its parts read them (spec: agentrun-template-packages.md,
 * the folder tree): strict UTF-8 text, paths kept inside the package, and each problem collected
 * with the path it is about. The skill, rule and eval checks all read through one of these.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import type { TemplateManifest } from '../../../shared/manifests/template-manifest';
import type { RefusalCode } from '../../../shared/contract/refusal-codes';

/** Decodes UTF-8 text strictly; null when the bytes are not UTF-8. */
export function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Whether `path` is a relative path inside the package: no `..`, no leading `/`, no empty parts.
 * Case files, fixtures and grader schemas are named by such a path, never one that leaves the package.
 */
export function isInnerPath(path: string): boolean {
  return (
    path !== '' &&
    !path.startsWith('/') &&
    !path.includes('\\') &&
    path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/**
 * The files and folders a part check reads, and the problems it finds, in folder order.
 * `manifest` is what agent.md said (less any refused field), `null` for the layout check that runs before it.
 */
export class PartReader {
  readonly errors: Problem[] = [];
  /** Files a part names (grader schemas, fixtures): a root file named here is allowed. */
  readonly named = new Set<string>();

  constructor(
    readonly files: ReadonlyMap<string, Uint8Array>,
    readonly directories: readonly string[],
    readonly manifest: TemplateManifest | null,
  ) {}

  /** Records a problem, its message led by the path it is about. */
  fail(code: RefusalCode, path: string, message: string): void {
    this.errors.push({ code, path, message: `${path}: ${message}` });
  }

  /** A file's text, `null` when it is not there or (refused as `template.encoding`) not UTF-8. */
  text(path: string): string | null {
    const bytes = this.files.get(path);
    if (!bytes) return null;
    const text = utf8(bytes);
    if (text === null) this.fail('template.encoding', path, 'is not UTF-8 text');
    return text;
  }
}
