import { AdminRequest } from '../components/AdminRequest';
import { Building2, OctagonX, ShieldAlert, Trash2, Wrench, X } from 'lucide-react';
import { type RefObject, useEffect, useRef } from 'react';
import type { AppInfo, SignatureVerdict } from '../../../shared/contract/api';
import type { ApoSummary, Inspection, Problem } from '../../../shared/manifests/inspection';
import { signatureVerdictOf, signatureVerdictWords } from '../../../shared/trust/signature-verdict';
import {
  authorMessage,
  inspectCommand,
  packCommand,
  refusalAdviceFor,
  type RefusalActor,
  type RefusalAdvice,
} from '../../../shared/contract/refusal-actor';
import { useAppInfo, useTrashSource } from '../../api/hooks';
import { CodeText } from '../components/CodeText';
import { CommandLineNote } from '../components/CommandLineNote';
import { CopyButton } from '../components/CopyButton';
import { PackageText } from '../components/PackageText';
import { pathAside, ProblemList } from '../components/ProblemList';
import { ErrorPanel } from '../components/Status';
import { UpdateAppButton } from '../components/UpdateAppButton';
import { useFlowStore, useMarkFinished } from '../stores/flow-store';

const ICONS: Record<RefusalActor, typeof Wrench> = {
  user: Wrench,
  author: OctagonX,
  administrator: Building2,
  nobody: ShieldAlert,
};

/**
 * Other problems shown at once; the rest (up to a hundred, shared/manifests/inspection.ts) wait behind "Show
 * more", so the actions below stay within reach of a glance, however many problems a package has.
 */
const OTHERS_SHOWN = 5;

/**
 * A package refused for its signature: the one signature verdict's words (shared/trust/signature-verdict.ts), as the
 * command line's `inspect` says them: a signature that does not hold, and why; never "not signed".
 */
function RefusedSignatureLine({
  inspection,
}: {
  inspection: Inspection & { signatureVerdict?: SignatureVerdict | null };
}) {
  const summary = inspection.kind === 'apo' ? (inspection.summary as ApoSummary | null) : null;
  if (summary?.signature?.state !== 'invalid') return null;
  const words = signatureVerdictWords(
    inspection.signatureVerdict ?? signatureVerdictOf(summary.signature, summary.publisher),
  );
  return (
    <p>
      <span className="badge badge-warning-soft" data-publisher-state={words.state}>
        <ShieldAlert aria-hidden="true" size={12} /> {words.label}
      </span>{' '}
      <CodeText text={words.explanation} />
    </p>
  );
}

/** The screen once the refused file is in the Trash: nothing of it was installed or run, and a Close. */
function TrashedScreen({
  heading,
  displayName,
  onClose,
}: {
  heading: RefObject<HTMLHeadingElement | null>;
  displayName: string;
  onClose: () => void;
}) {
  return (
    <div className="screen">
      <h1 tabIndex={-1} ref={heading}>
        <Trash2 aria-hidden="true" size={24} /> {displayName} is in the Trash
      </h1>
      <p role="status">Nothing of it was installed or run. You can empty the Trash to delete it for good.</p>
      <button type="button" className="button button-primary" onClick={onClose}>
        <X aria-hidden="true" size={16} /> Close
      </button>
    </div>
  );
}

/** The first problem in the checker's words, with its path when the message does not already say it. */
function FirstProblem({ first }: { first: Problem | undefined }) {
  if (!first) return <p className="refusal">It could not be read, and no reason was given.</p>;
  return (
    <p className="refusal">
      <CodeText text={first.message} />
      {pathAside(first.message, first.path) ? (
        <>
          {' '}
          <span className="muted">
            at{' '}
            <code>
              <PackageText text={first.path} />
            </code>
          </span>
        </>
      ) : null}
    </p>
  );
}

/** The alert: who acts and what to do, why it was refused, and the first problem with its error code. */
function RefusalPanel({
  inspection,
  advice,
  kind,
  displayName,
  app,
}: {
  inspection: Inspection;
  advice: RefusalAdvice;
  kind: string;
  displayName: string;
  app: AppInfo | undefined;
}) {
  const first = inspection.errors[0];
  return (
    <section
      className={`panel ${advice.actor === 'user' ? 'panel-warning' : 'panel-error'}`}
      role="alert"
      aria-labelledby="refused-heading"
    >
      <h2 id="refused-heading">{advice.title}</h2>
      <p className="refusal-action">{advice.action}</p>
      <RefusedSignatureLine inspection={inspection} />
      {first?.code === 'manifest.sdk_unsupported' && app ? (
        <p className="small">
          This is Apollia Desktop {app.version}; it runs packages made for the Apollia SDK {app.sdkVersion}.
        </p>
      ) : null}
      <p>
        <strong>{displayName}</strong> was checked without running any of it, and{' '}
        {advice.why.replaceAll('{kind}', kind)}.{' '}
        {inspection.kind === 'plugin' ? 'Plugins are only shown here, never installed.' : 'Nothing was installed.'}
      </p>
      <FirstProblem first={first} />
      {first ? <p className="small muted">Error code: {first.code}</p> : null}
    </section>
  );
}

/** The problems after the first: a few at once, the rest behind "Show more". */
function OtherProblems({ others }: { others: Problem[] }) {
  if (others.length === 0) return null;
  return (
    <section aria-labelledby="others-heading">
      <h2 id="others-heading">Other problems</h2>
      <ProblemList problems={others.slice(0, OTHERS_SHOWN)} />
      {others.length > OTHERS_SHOWN ? (
        <details className="more-problems">
          <summary>Show {others.length - OTHERS_SHOWN} more</summary>
          <ProblemList problems={others.slice(OTHERS_SHOWN)} />
        </details>
      ) : null}
    </section>
  );
}

/**
 * What to do next on the command line: for a template whose `.apo` is not built, the command that packs it; for a
 * package its author must fix, the message to send them, ending with the command that shows every problem.
 */
function FixSection({
  unbuilt,
  displayName,
  problems,
  command,
  program,
}: {
  unbuilt: boolean;
  displayName: string;
  problems: Problem[];
  command: string;
  program: string | null;
}) {
  return (
    <section aria-labelledby="fix-heading">
      <h2 id="fix-heading">{unbuilt ? 'How to pack it' : 'For its author'}</h2>
      {unbuilt ? null : (
        <>
          <p>Send its author this message: it names the file and each problem, in the checker's words.</p>
          <pre className="author-message" aria-label="Message for the author" tabIndex={0}>
            {authorMessage(displayName, problems, command)}
          </pre>
          <p>
            <CopyButton value={authorMessage(displayName, problems, command)} label="Copy the message for the author" />
          </p>
        </>
      )}
      <p>
        {unbuilt
          ? 'Run this in the folder that holds it; it checks the package, then writes the .apo file:'
          : 'The message ends with this command, which shows them every problem before they publish the package again:'}
      </p>
      <p className="command-line">
        <code>{command}</code> <CopyButton value={command} label="Copy the command" />
      </p>
      <CommandLineNote program={program} />
    </section>
  );
}

/**
 * A refused package: who acts first (the person, the author, or nobody: it may be malicious), then
 * what is wrong in the spec's words, with paths. Never blank; always a Close.
 */
export function RefusedScreen({
  inspection,
  displayName,
  sourceId,
}: {
  inspection: Inspection;
  displayName: string;
  sourceId: string;
}) {
  const [first, ...others] = inspection.errors;
  const kind =
    inspection.kind === 'template' ? 'template' : inspection.kind === 'plugin' ? 'plugin manifest' : 'package';
  // Who acts (shared/contract/refusal-actor.ts): a sign of malice anywhere outweighs the first problem.
  const advice = refusalAdviceFor(inspection.errors);
  const appInfo = useAppInfo();
  const closeSource = useFlowStore((s) => s.closeSource);
  useMarkFinished(sourceId, 'refused');
  const trash = useTrashSource();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const unbuilt = first?.code === 'template.unbuilt_apo';
  const Icon = ICONS[advice.actor];
  // The app's own command line as it runs here (main says which program), never `npx` of a name.
  const program = appInfo.data?.cliProgram ?? null;
  const command = unbuilt ? packCommand(displayName, program) : inspectCommand(displayName, program);

  if (trash.isSuccess) {
    return <TrashedScreen heading={heading} displayName={displayName} onClose={() => closeSource(sourceId)} />;
  }

  return (
    <div className="screen">
      <h1 tabIndex={-1} ref={heading}>
        <Icon aria-hidden="true" size={24} /> This {kind} was refused
      </h1>
      <RefusalPanel inspection={inspection} advice={advice} kind={kind} displayName={displayName} app={appInfo.data} />
      <OtherProblems others={others} />
      {advice.actor === 'administrator' && first ? (
        <AdminRequest code={first.code} refused={first.message} subject={`the ${kind} ${displayName}`} />
      ) : null}
      {advice.actor === 'author' || unbuilt ? (
        <FixSection
          unbuilt={unbuilt}
          displayName={displayName}
          problems={inspection.errors}
          command={command}
          program={program}
        />
      ) : null}
      {advice.updateApp ? <UpdateAppButton /> : null}
      {trash.isError ? <ErrorPanel error={trash.error} title="It was not moved to the Trash" /> : null}
      <div className="button-row">
        {advice.actor === 'nobody' ? (
          <button
            type="button"
            className="button button-danger"
            disabled={trash.isPending}
            onClick={() => trash.mutate({ sourceId })}
          >
            <Trash2 aria-hidden="true" size={16} /> Move to Trash
          </button>
        ) : null}
        <button
          type="button"
          className={advice.actor === 'nobody' || advice.updateApp ? 'button' : 'button button-primary'}
          onClick={() => closeSource(sourceId)}
        >
          <X aria-hidden="true" size={16} /> Close
        </button>
      </div>
    </div>
  );
}
