import type { ActivityExportView, ActivityVerdict } from '../../../shared/contract/api';
import { CodeText } from './CodeText';
import { PackageText } from './PackageText';
import { formatDateTime, localTimeZone } from './date-format';

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function when(iso: string | null): string {
  return iso ? formatDateTime(iso, localTimeZone(), { seconds: true }) : '';
}

/**
 * What the record's check proved (DESIGN.md "Triggers at run time": the dashboard shows it): one
 * line when intact; a banner when it breaks, naming where and how; and, when the record holds
 * breaks found earlier (each recorded as it was found), a warning that says so.
 */
export function RecordVerdict({ verdict }: { verdict: ActivityVerdict }) {
  const held =
    verdict.recordedBreaks > 0 ? (
      <div className="panel panel-warning" role="status" data-testid="activity-recorded-breaks">
        <p className="small">
          The record holds {plural(verdict.recordedBreaks, 'break', 'breaks')} found earlier: see "The activity record
          was found broken" below. The entries before a break may not be what happened.
        </p>
      </div>
    ) : null;
  if (verdict.intact)
    return (
      <>
        <p className="small muted" data-testid="activity-verdict">
          The record checks out — {verdict.summary}.
        </p>
        {held}
      </>
    );
  return (
    <>
      <div className="panel panel-error" role="alert" data-testid="activity-verdict">
        <p>
          <strong>The activity record does not check out.</strong> <CodeText text={verdict.summary} />
        </p>
        <p className="small">
          Someone or something changed the record's files since they were written: the entries below may not be what
          happened. This break is itself recorded.
        </p>
      </div>
      {held}
    </>
  );
}

/** Whose collector it is, in words: the organization's (its policy), or the person's (Settings). */
export function collectorWords(exported: ActivityExportView): string {
  return exported.origin === 'organization' ? "your organization's collector" : 'your collector';
}

/**
 * The record's export to the collector in effect (the policy's `activityExport.otlp`, else the one the person named in
 * Settings): what the trigger host sent, and a warning while batches fail, with the last failure in words.
 */
export function RecordExport({ exported }: { exported: ActivityExportView | null }) {
  if (exported === null) return null;
  const where = <ExportAddress url={exported.url} />;
  if (exported.problem !== null)
    return (
      <div className="panel panel-warning" role="status" data-testid="activity-export">
        <p className="small">
          {exported.origin === 'organization' ? 'Your organization asks' : 'You asked'} for this record at {where}, but
          it is not sent: <CodeText text={exported.problem} />.
        </p>
      </div>
    );
  const failing = exportFailing(exported);
  const sent =
    exported.sent > 0
      ? `${plural(exported.sent, 'entry', 'entries')} sent${exported.lastSentAt ? `, the last at ${when(exported.lastSentAt)}` : ''}`
      : 'nothing sent yet';
  if (failing)
    return (
      <div className="panel panel-warning" role="status" data-testid="activity-export">
        <p className="small">
          This record is sent to {collectorWords(exported)} at {where} ({sent}), but{' '}
          {plural(exported.failed, 'entry', 'entries')} in {plural(exported.failedBatches, 'batch', 'batches')} could
          not be sent; the last failure, at {when(exported.lastFailureAt)}:{' '}
          <CodeText text={exported.lastError ?? 'no answer'} />. They are sent again while Apollia Desktop (or{' '}
          <code>serve</code>) runs.
        </p>
      </div>
    );
  return (
    <p className="small muted" data-testid="activity-export">
      Sent to {collectorWords(exported)} at {where}: {sent}
      {exported.failed > 0
        ? `; ${plural(exported.failed, 'entry', 'entries')} failed earlier and ${exported.failed === 1 ? 'was' : 'were'} sent again`
        : ''}
      {exported.sent === 0 ? ' (the record is sent while Apollia Desktop or serve runs)' : ''}.
    </p>
  );
}

/** The collector's address, as the policy or the person gives it. */
export function ExportAddress({ url }: { url: string }) {
  return (
    <code>
      <PackageText text={url} />
    </code>
  );
}

/** Whether the export's last batch failed (no batch sent since the last failure). */
export function exportFailing(exported: ActivityExportView): boolean {
  return (
    exported.lastFailureAt !== null && (exported.lastSentAt === null || exported.lastSentAt < exported.lastFailureAt)
  );
}

/**
 * The dashboard's banner while the record cannot be sent to the collector in effect (or its address cannot be used): where, since when, how many entries wait, and the way to the Activity screen's details.
 */
export function ExportFailingBanner({
  exported,
  onOpen,
}: {
  exported: ActivityExportView | undefined;
  onOpen: () => void;
}) {
  if (exported === undefined || (exported.problem === null && !exportFailing(exported))) return null;
  const where = <ExportAddress url={exported.url} />;
  return (
    <section className="panel panel-warning" role="status" data-testid="dashboard-export-failing">
      <p>
        <strong>The activity record is not reaching {collectorWords(exported)}</strong> at {where}.
      </p>
      <p className="small">
        {exported.problem !== null ? (
          <>
            The address cannot be used: <CodeText text={exported.problem} />.
          </>
        ) : (
          <>
            The last try, at {when(exported.lastFailureAt)}, failed:{' '}
            <CodeText text={exported.lastError ?? 'no answer'} />. {plural(exported.failed, 'entry', 'entries')} could
            not be sent yet; they are sent again while Apollia Desktop (or <code>serve</code>) runs. Your decisions are
            recorded here all the same.
          </>
        )}{' '}
        <button type="button" className="link-button link-inline" onClick={onOpen}>
          See the activity record
        </button>
      </p>
    </section>
  );
}
