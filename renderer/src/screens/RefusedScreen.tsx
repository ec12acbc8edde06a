import { OctagonX } from 'lucide-react';
import type { Inspection } from '../../../shared/inspection';
import { CodeText } from '../components/CodeText';
import { PackageText } from '../components/PackageText';
import { pathAside, ProblemList } from '../components/ProblemList';

/** The field a problem is at, unless its message already names it. */
/** A refused package: what is wrong, in the spec's words, with paths; what the author must fix. Never blank. */
export function RefusedScreen({ inspection, displayName }: { inspection: Inspection; displayName: string }) {
  const [first, ...others] = inspection.errors;
  const kind = inspection.kind === 'template' ? 'template' : inspection.kind === 'plugin' ? 'plugin manifest' : 'package';
  return (
    <div className="screen">
      <h1>
        <OctagonX aria-hidden="true" size={24} /> This {kind} was refused
      </h1>
      <section className="panel panel-error" role="alert" aria-labelledby="refused-heading">
        <h2 id="refused-heading">What is wrong</h2>
        <p>
          <strong>{displayName}</strong> was checked without running any of it, and it does not follow the rules for a {kind}. {inspection.kind === 'plugin' ? 'Plugins are only shown here, never installed.' : 'Nothing was installed.'}
        </p>
        {first ? (
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
        ) : (
          <p className="refusal">It could not be read, and no reason was given.</p>
        )}
        {first ? <p className="small muted">Error code: {first.code}</p> : null}
      </section>
      {others.length > 0 ? (
        <section aria-labelledby="others-heading">
          <h2 id="others-heading">Other problems</h2>
          <ProblemList problems={others} />
        </section>
      ) : null}
      <section aria-labelledby="fix-heading">
        <h2 id="fix-heading">What the author must fix</h2>
        <p>
          Only the {kind}'s author can fix this: send them the message above. They can run the same check with <code>npx apollia-desktop inspect</code> before they publish it again.
        </p>
      </section>
    </div>
  );
}
