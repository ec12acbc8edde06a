import { FAMILY_LABELS, FAMILY_WORDS } from '../../../../shared/words/words';
import type { AccessMark } from '../../../../shared/decisions/access-rows';

/** An update's mark on something it adds or changes (the diff of `shared/decisions/update-diff.ts`). */
export function UpdateMark({ mark }: { mark: AccessMark | null | undefined }) {
  if (!mark) return null;
  if (mark.kind === 'new') return <span className="badge badge-new">New in this version</span>;
  if (mark.kind === 'changed') {
    return (
      <span
        className="badge badge-changed"
        title={`Now: ${FAMILY_WORDS[mark.to]}. Before: ${FAMILY_WORDS[mark.from]}.`}
      >
        Changed: now {FAMILY_LABELS[mark.to].toLowerCase()} (was {FAMILY_LABELS[mark.from].toLowerCase()})
      </span>
    );
  }
  return <span className="badge badge-changed">Asked again</span>;
}

/** A count in words with its thousands separated ("3,000 tools", "1 tool"). */
export function countOf(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
