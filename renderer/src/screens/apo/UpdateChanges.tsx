import { Info, ShieldAlert, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { type UpdateChangeLevel, type UpdateDiff, updateChangeLines } from '../../../../shared/decisions/update-diff';
import { nameLikeness } from '../../../../shared/words/name-comparison';
import type { Decisions } from '../../../../shared/decisions/decisions';
import { CodeText } from '../../components/CodeText';
import { PackageText } from '../../components/PackageText';
import { NameDifferenceList } from '../../components/trust/NameDifferenceList';

/** Why a lookalike name passes for the old one, in words. */
function lookalikeWords(publisher: NonNullable<UpdateDiff['publisher']>): string {
  const likeness = nameLikeness(publisher.from, publisher.to);
  const how =
    likeness === 'contains'
      ? 'The new name is the old one with words added (and perhaps a letter or two changed).'
      : likeness === 'near'
        ? 'The new name is one or two letters away from the old one.'
        : 'The new name is written differently but looks almost the same (letters swapped for digits or for letters of another alphabet).';
  return `${how} That is how impostors pass for someone you trust: do not install it unless you know why the name changed.`;
}

/**
 * A publisher that changed: first and loud, old and new names side by side, and whether one passes for the other.
 * Shown on an update's first step and again on Review, where Install is pressed.
 */
export function PublisherChange({
  publisher,
  signed,
  headingId = 'publisher-change-heading',
}: {
  publisher: NonNullable<UpdateDiff['publisher']>;
  signed: boolean;
  headingId?: string;
}) {
  const lookalike = publisher.comparison === 'lookalike';
  return (
    <section className="panel panel-error publisher-change" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <ShieldAlert aria-hidden="true" size={20} />{' '}
        {lookalike ? 'The publisher name changed to a lookalike' : 'The publisher changed'}
      </h3>
      <dl className="facts">
        <dt>Installed version is from</dt>
        <dd>
          <strong>
            <PackageText text={publisher.from} />
          </strong>
        </dd>
        <dt>This version says it is from</dt>
        <dd>
          <strong>
            <PackageText text={publisher.to} />
          </strong>
        </dd>
      </dl>
      {lookalike ? (
        <NameDifferenceList expected={publisher.from} shown={publisher.to} expectedWords="the installed name" />
      ) : null}
      <p>
        {lookalike
          ? lookalikeWords(publisher)
          : signed
            ? 'A signature vouches for the key, not for the name a package gives itself. Install it only if you know why the package changed hands.'
            : 'This version is not signed by a key you trust, so either name could be anyone. Install it only if you know why the package changed hands.'}
      </p>
    </section>
  );
}

/** The word before a change, so its weight is said and not only coloured. */
const CHANGE_LEVEL_WORDS: Record<UpdateChangeLevel, string> = {
  high: 'High risk: ',
  sensitive: 'Needs care: ',
  notice: '',
};

function ChangeIcon({ level }: { level: UpdateChangeLevel }) {
  if (level === 'high') return <ShieldAlert aria-hidden="true" size={18} className="risk-icon" />;
  if (level === 'sensitive') return <TriangleAlert aria-hidden="true" size={18} className="risk-icon" />;
  return <Info aria-hidden="true" size={18} className="risk-icon" />;
}

/** What an update changes in what the package asks, in words, the publisher first, each change by its weight. */
export function UpdateChanges({
  diff,
  installedVersion,
  decisions,
  signed = false,
  lead = null,
}: {
  diff: UpdateDiff;
  installedVersion: string;
  decisions: Decisions | null;
  signed?: boolean;
  /** What comes after a publisher change, before the rest (who signed it, and how that stands to the installed key). */
  lead?: ReactNode;
}) {
  const lines = updateChangeLines(diff);
  const changes = diff.publisher ? lines.slice(1) : lines;
  const kept = decisions ? keptSummary(decisions) : null;
  return (
    <div className="step-body">
      {diff.publisher ? <PublisherChange publisher={diff.publisher} signed={signed} /> : null}
      {lead}
      <p>
        Version {installedVersion} is installed; this is version {diff.toVersion}. Anything new or wider is left
        unticked for you to decide, and a new or changed trigger stays off.
      </p>
      {kept ? (
        <p className="small" aria-label="What this update keeps">
          Kept as you decided: {kept.grants === 0 ? 'no grants' : `${countWords(kept.grants, 'grant')}`}
          {kept.armed.length > 0
            ? `; ${countWords(kept.armed.length, 'armed trigger')} (${kept.armed.join(', ')}), with ${kept.armed.length === 1 ? 'its' : 'their'} folder and secret`
            : '; no armed trigger'}
          .
        </p>
      ) : null}
      {kept && kept.turnedOff.length > 0 ? (
        <section className="panel panel-warning" aria-labelledby="turned-off-heading">
          <h3 id="turned-off-heading">Turned off by this update</h3>
          <ul>
            {kept.turnedOff.map(([id, why]) => (
              <li key={id}>
                <code>
                  <PackageText text={id} />
                </code>
                : <PackageText text={why} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {diff.asksMore ? (
        <p className="panel panel-warning">This version asks for more than the installed one: see below.</p>
      ) : (
        <p className="panel">This version asks for nothing more than the installed one.</p>
      )}
      {changes.length === 0 ? (
        <p className="muted">Nothing it asks for has changed.</p>
      ) : (
        <ul className="risk-list" aria-label="Changes">
          {changes.map((change, i) => (
            <li key={i} className={`risk risk-${change.level}`}>
              <ChangeIcon level={change.level} />
              <span className="risk-text">
                <span className="risk-word">{CHANGE_LEVEL_WORDS[change.level]}</span>
                <CodeText text={change.text} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What an update keeps of the person's decisions, and what it turns off, from the one decision. */
function keptSummary(decisions: Decisions): { grants: number; armed: string[]; turnedOff: [string, string][] } {
  let grants = 0;
  for (const entries of Object.values(decisions.agents))
    for (const d of Object.values(entries)) if (d.reason === 'kept' && d.permission !== 'deny') grants++;
  const armed: string[] = [];
  const turnedOff: [string, string][] = [];
  for (const [id, t] of Object.entries(decisions.triggers)) {
    if (t.status === 'unchanged' && t.armed) armed.push(id);
    if (t.turnedOff) turnedOff.push([id, t.turnedOff]);
  }
  return { grants, armed: armed.slice(0, 20), turnedOff };
}

function countWords(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
