import { AlertTriangle, Lock, RefreshCw, Undo2 } from 'lucide-react';
import { useState } from 'react';
import type { UpdateModeView, UpdateOpened, UpdateRow } from '../../../../shared/contract/api';
import type { ApiErrorCode } from '../../../../shared/contract/api-errors';
import { ApiCallError } from '../../../api/bridge';
import { useCheckUpdates, useOpenUpdate, useSetUpdateMode } from '../../../api/feed-hooks';
import { CodeText } from '../../components/CodeText';
import { formatDateTime } from '../../components/date-format';
import { PackageText } from '../../components/PackageText';
import { ErrorPanel, Loading } from '../../components/Status';
import { useFlowStore } from '../../stores/flow-store';
import { UpdatePreview } from './UpdatePreview';
import './updates.css';

/** The update modes in words, the same as the CLI's `update-mode`. */
const MODE_WORDS: Record<UpdateModeView, string> = {
  notify: 'Tell me (you review each update)',
  auto: 'Apply by itself when it asks for nothing new',
  hold: 'Hold at this version',
};

/**
 * The Updates screen (DESIGN.md "Feeds, updates and install links"): each package installed from a
 * publisher's feed, checked now — its version and the feed's newest, a version the publisher
 * withdrew said with their reason, its update mode, and two ways on: "Review update", which opens
 * the update in the same consent form as a file (what it adds, widens or changes is shown there and
 * nothing new is granted until you decide), and "Roll back" to the version kept.
 */
export function UpdatesScreen() {
  const updates = useCheckUpdates();
  return (
    <div className="screen updates-screen">
      <h1 tabIndex={-1}>Updates</h1>
      <p className="muted">
        Packages installed from their publisher’s signed feed. An update opens in the same form as a file you open: what
        it adds or changes is shown there, and nothing new is allowed until you decide.
      </p>
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={() => void updates.refetch()}
          disabled={updates.isFetching}
          aria-describedby="updates-checked"
        >
          <RefreshCw aria-hidden="true" size={16} /> Check now
        </button>
        <span id="updates-checked" className="muted small" role="status">
          {updates.isFetching
            ? 'Checking every feed…'
            : updates.data
              ? `Last checked ${formatDateTime(updates.data.checkedAt)}`
              : ''}
        </span>
      </div>
      {updates.isPending ? <Loading label="Checking every feed…" /> : null}
      {updates.isError ? <ErrorPanel error={updates.error} title="The feeds could not be checked" /> : null}
      {updates.data?.modeLocked ? (
        <p className="panel panel-note" id="update-mode-lock">
          <Lock aria-hidden="true" size={16} /> <CodeText text={updates.data.modeLocked} />
        </p>
      ) : null}
      {updates.data && updates.data.rows.length === 0 ? (
        <p className="panel">
          No package here was installed from a publisher’s feed. An install link from a publisher, or Settings → Feeds,
          starts one.
        </p>
      ) : null}
      {updates.data && updates.data.rows.length > 0 ? (
        <ul className="card-list" aria-label="Packages from feeds">
          {updates.data.rows.map((row) => (
            // A newer version offered since is a new card: a shown preview of the older one goes.
            <UpdateCard key={`${row.name}@${row.latest ?? ''}`} row={row} modeLocked={updates.data.modeLocked} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A feed's refusal as the error panel shows any refusal: its words, its code and the feed's address. */
function feedRefusal(problem: { code: string; message: string }, feed: string): ApiCallError {
  return new ApiCallError({ code: problem.code as ApiErrorCode, message: problem.message, path: feed });
}

/** What a row says of its state: the update, up to date, or why the feed could not be read. */
function stateWords(row: UpdateRow): string {
  if (row.problem) return 'Not checked: the feed was refused';
  if (row.updateAvailable) return `Version ${row.latest ?? '?'} is available`;
  return 'Up to date';
}

function UpdateCard({ row, modeLocked }: { row: UpdateRow; modeLocked: string | null }) {
  const openSource = useFlowStore((s) => s.openSource);
  const review = useOpenUpdate('update');
  const rollback = useOpenUpdate('rollback');
  const setMode = useSetUpdateMode();
  // The update opened as a source, its changes shown here before any form.
  const [preview, setPreview] = useState<UpdateOpened | null>(null);
  const headingId = `update-${row.name}`;
  return (
    <li className="card update-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="update-name">
        <PackageText text={row.name} /> <span className="muted">{row.installed}</span>
      </h2>
      <p className={row.updateAvailable ? 'update-state update-available' : 'update-state'}>{stateWords(row)}</p>
      <dl className="facts">
        <dt>Feed</dt>
        <dd>
          <code className="update-feed">
            <PackageText text={row.feed} />
          </code>
        </dd>
        <dt>Last checked</dt>
        <dd>{row.lastChecked ? formatDateTime(row.lastChecked) : 'never'}</dd>
      </dl>
      {row.yanked ? (
        <section className="panel panel-warning" aria-label={`${row.name} ${row.installed} was withdrawn`}>
          <p>
            <AlertTriangle aria-hidden="true" size={16} />{' '}
            <strong>The publisher withdrew version {row.installed}</strong>: <PackageText text={row.yanked.reason} />
          </p>
          <p className="small">
            {row.updateAvailable ? 'Review the update below' : row.rollbackTo ? 'Roll back' : 'Uninstall it'} unless you
            know why you keep it.
          </p>
        </section>
      ) : null}
      {row.problem ? <ErrorPanel error={feedRefusal(row.problem, row.feed)} title="This feed was refused" /> : null}
      {row.updateAvailable && row.mode === 'auto' ? (
        <p className="panel panel-note small">
          Automatic updates apply only what asks for nothing new. This one has not been applied: review it to see what
          it asks.
        </p>
      ) : null}
      {row.updateAvailable && row.mode === 'hold' ? (
        <p className="muted small">Held at {row.installed}: set it to “Tell me” to review this update.</p>
      ) : null}
      <div className="field">
        <label htmlFor={`mode-${row.name}`}>Updates</label>
        <select
          id={`mode-${row.name}`}
          value={row.mode}
          disabled={modeLocked !== null || setMode.isPending}
          aria-describedby={modeLocked ? 'update-mode-lock' : undefined}
          onChange={(event) => setMode.mutate({ name: row.name, mode: event.target.value as UpdateModeView })}
        >
          {(Object.keys(MODE_WORDS) as UpdateModeView[]).map((mode) => (
            <option key={mode} value={mode}>
              {MODE_WORDS[mode]}
            </option>
          ))}
        </select>
      </div>
      {setMode.isError ? <ErrorPanel error={setMode.error} title="The mode was not changed" /> : null}
      <div className="button-row">
        {row.updateAvailable && row.mode !== 'hold' && preview === null ? (
          <button
            type="button"
            className="button button-primary"
            disabled={review.isPending}
            onClick={() => review.mutate({ name: row.name }, { onSuccess: setPreview })}
          >
            See what {row.latest} changes
          </button>
        ) : null}
        {row.rollbackTo ? (
          <button
            type="button"
            className="button"
            disabled={rollback.isPending}
            onClick={() => rollback.mutate({ name: row.name }, { onSuccess: (opened) => openSource(opened.handle) })}
          >
            <Undo2 aria-hidden="true" size={16} /> Roll back to {row.rollbackTo}
          </button>
        ) : null}
      </div>
      {preview ? <UpdatePreview opened={preview} onClose={() => setPreview(null)} /> : null}
      {review.isPending ? <Loading label={`Fetching ${row.name} ${row.latest ?? ''} and checking it…`} /> : null}
      {review.isError ? <ErrorPanel error={review.error} title="The update could not be opened" /> : null}
      {rollback.isError ? <ErrorPanel error={rollback.error} title="The earlier version could not be opened" /> : null}
    </li>
  );
}
