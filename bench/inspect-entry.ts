/**
 * Child-process entry of the bench: inspects one path with the project's real reader
 * (`inspectByContent`, what `apollia-desktop inspect` runs in its bounded worker, here in-thread so
 * the reader's own time and memory are measured) and prints one JSON line.
 * The bench bundles it to plain JavaScript first, so Node's start-up is measured but no
 * TypeScript transpiling is.
 */
import { inspectByContent } from '../electron/core/bounded/jobs';

const path = process.argv[2] ?? '';
if (!path) {
  console.error('usage: inspect-entry PATH');
  process.exit(2);
}
inspectByContent(path).then(
  (inspection) => {
    const summary = inspection.summary as { name?: string } | null;
    console.log(
      JSON.stringify({
        ok: inspection.ok,
        kind: inspection.kind,
        name: summary?.name ?? null,
        error: inspection.errors[0] ?? null,
      }),
    );
  },
  (error: unknown) => {
    console.error(error);
    process.exit(3);
  },
);
