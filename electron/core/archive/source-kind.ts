/**
 * The kind of an opened source, decided once, by content (DESIGN.md "Validation contract": a
 * folder is a template, a tar or gzip'd tar an `.apo`, a JSON document a plugin manifest; never by
 * extension). The CLI's `inspect`, the Api's `registerSource` (so the app and the e2e harness) all
 * ask this one function, so the same `notes.txt` gets the same refusal everywhere.
 */
import type { Inspection } from '../../../shared/manifests/inspection';
import { sniffInputKind } from './index';

/** What a source is: one of the three package kinds, or not a package at all. */
export type SourceKind = 'apo' | 'template' | 'plugin' | 'not_a_package';

/**
 * The kind of `path`. A folder is a template; gzip, tar, and the archive formats recognised only to
 * be refused (zip, zstd, …) are `.apo` attempts, so the archive reader's refusal names the format;
 * a document starting with `{` is a plugin manifest; anything else (text, an image, a FIFO, an
 * unreadable path) is not a package.
 */
export async function sourceKindOf(path: string): Promise<SourceKind> {
  switch (await sniffInputKind(path)) {
    case 'directory':
      return 'template';
    case 'apo':
      return 'apo';
    case 'json':
      return 'plugin';
    default:
      return 'not_a_package';
  }
}

/**
 * The refusal of a source that is not a package (`input.not_a_package`), naming it as `shown`
 * (the CLI shows the path it was given, the app the file's name). Reported as an `.apo` attempt,
 * the main input of both the CLI and the app's file picker.
 */
export function notAPackage(shown: string): Inspection {
  return {
    kind: 'apo',
    ok: false,
    errors: [
      {
        code: 'input.not_a_package',
        message: `\`${shown}\` is not a package: it is neither an .apo archive (tar or gzip'd tar), a template folder, nor a plugin manifest (JSON)`,
      },
    ],
    warnings: [],
    summary: null,
    details: null,
  };
}
