import { isSensitive, type ActionFamily } from '../../../../shared/apollia-manifest';
import { FAMILY_LABELS, FAMILY_WORDS } from '../../../../shared/risk-summary';
import type { AccessMark } from './access';

/**
 * The family badge of a long list's row: the same words, colours and icon as `FamilyBadge`, the
 * icon drawn by CSS (`.badge-icon`) instead of an SVG element per badge, so thousands of rows stay light.
 */
export function FamilyTag({ family }: { family: ActionFamily | 'unknown' }) {
  if (family === 'unknown') {
    return (
      <span className="badge badge-unknown" title="What this tool does is decided by the tool itself">
        Decided by the tool
      </span>
    );
  }
  const sensitive = isSensitive(family);
  return (
    <span className={`badge badge-${family}`} title={FAMILY_WORDS[family]}>
      <span className={`badge-icon ${sensitive ? 'badge-icon-warning' : 'badge-icon-eye'}`} aria-hidden="true" /> {FAMILY_LABELS[family]}
      <span className="visually-hidden">{sensitive ? ' (sensitive)' : ''}</span>
    </span>
  );
}

/** An update's mark on something it adds or changes (the diff of `shared/update-diff.ts`). */
export function UpdateMark({ mark }: { mark: AccessMark | null | undefined }) {
  if (!mark) return null;
  if (mark.kind === 'new') return <span className="badge badge-new">New in this version</span>;
  if (mark.kind === 'changed') {
    return (
      <span className="badge badge-changed" title={`Now: ${FAMILY_WORDS[mark.to]}. Before: ${FAMILY_WORDS[mark.from]}.`}>
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
