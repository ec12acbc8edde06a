import { isSensitive, type ActionFamily } from '../../../shared/manifests/apollia-manifest';
import { type AccessDecided, permissionWords } from '../../../shared/decisions/access-decisions';
import {
  FAMILY_LABELS,
  FAMILY_WORDS,
  REACHES_OUTSIDE_LABEL,
  REACHES_OUTSIDE_WORDS,
  UNKNOWN_FAMILY_LABEL,
} from '../../../shared/words/words';

/**
 * An action family badge: sensitive families in warning colours with plain words; `read` neutral.
 * The icon is drawn by CSS (`.badge-icon`), not an SVG element per badge, so thousands of rows stay light.
 */
export function FamilyBadge({ family }: { family: ActionFamily | 'unknown' }) {
  if (family === 'unknown') {
    return (
      <span
        className="badge badge-unknown"
        title="This app cannot know what this tool does before it runs, so each call asks you first"
      >
        {UNKNOWN_FAMILY_LABEL}
      </span>
    );
  }
  const sensitive = isSensitive(family);
  return (
    <span className={`badge badge-${family}`} title={FAMILY_WORDS[family]}>
      <span className={`badge-icon ${sensitive ? 'badge-icon-warning' : 'badge-icon-eye'}`} aria-hidden="true" />{' '}
      {FAMILY_LABELS[family]}
      <span className="visually-hidden">{sensitive ? ' (sensitive)' : ''}</span>
    </span>
  );
}

/**
 * Beside "Reads" on a built-in tool that sends what it looks up outside (a web search): the same
 * classification the verdict counts (`reachesOutside`), so a row never says less than the verdict.
 */
export function OutwardBadge({ outward }: { outward: boolean }) {
  if (!outward) return null;
  return (
    <span className="badge badge-warning-soft" title={REACHES_OUTSIDE_WORDS}>
      {REACHES_OUTSIDE_LABEL}
    </span>
  );
}

/** Whether a call asks first: sensitive and unknown families ask, `read` runs unasked (spec `[[mcp_servers]]`). */
export function AskBadge({ asks }: { asks: boolean }) {
  return asks ? (
    <span className="badge badge-ask">Asks you first</span>
  ) : (
    <span className="badge badge-allow">Runs without asking</span>
  );
}

/** How a decided entry runs, in the decision's own words ("Asks you first: the package's own code, …"). */
export function PermissionBadge({ decided, id }: { decided: AccessDecided; id?: string }) {
  const words = permissionWords(decided);
  const className =
    decided.permission === 'allow'
      ? 'badge badge-allow'
      : decided.permission === 'ask'
        ? 'badge badge-ask'
        : 'badge badge-deny';
  return (
    <span className={className} id={id}>
      {words}
    </span>
  );
}
