import { AlertTriangle, Ban, CheckCircle2, Info, ShieldAlert } from 'lucide-react';
import type { ApoInspection } from '../../../../shared/inspection';
import { APOLLIA_NATIVE_TOOLS } from '../../../../shared/catalogues';
import { riskSummary, type RiskLine } from '../../../../shared/risk-summary';
import { textSafetyReport } from '../../../../shared/display-text';
import { manifestTextFields } from '../../../../shared/manifest-text-fields';
import { CopyButton } from '../../components/CopyButton';
import { FamilyBadge } from '../../components/FamilyBadge';
import { CodeText } from '../../components/CodeText';
import { PackageText } from '../../components/PackageText';
import { ProblemList } from '../../components/ProblemList';

function RiskIcon({ line }: { line: RiskLine }) {
  if (line.level === 'sensitive') return <ShieldAlert aria-hidden="true" size={18} />;
  if (line.level === 'cannot') return <Ban aria-hidden="true" size={18} />;
  return <Info aria-hidden="true" size={18} />;
}

/** Step 1: who it says it is from, what it is, and the risk summary, worst first. */
export function OverviewStep({ inspection }: { inspection: ApoInspection }) {
  const details = inspection.details;
  const summary = inspection.summary;
  if (!details || !summary) return null;
  const manifest = details.manifest;
  const lines = riskSummary(manifest, APOLLIA_NATIVE_TOOLS);
  const can = lines.filter((line) => line.level !== 'cannot');
  const cannot = lines.filter((line) => line.level === 'cannot');
  const textWarnings = textSafetyReport(manifestTextFields(manifest));
  return (
    <div className="step-body">
      <dl className="facts facts-wide">
        <dt>Name</dt>
        <dd>
          <PackageText text={manifest.package.name} />
        </dd>
        <dt>Version</dt>
        <dd>
          <PackageText text={manifest.package.version} />
        </dd>
        <dt>Publisher</dt>
        <dd>
          <PackageText text={manifest.package.publisher} />{' '}
          <span className="badge badge-warning-soft" title="Nothing is signed yet: anyone can write any publisher name">
            <AlertTriangle aria-hidden="true" size={12} /> Unverified publisher
          </span>
        </dd>
        <dt>What it does</dt>
        <dd>{manifest.package.description ? <PackageText text={manifest.package.description} /> : <span className="muted">The package gives no description.</span>}</dd>
        <dt>Archive SHA-256</dt>
        <dd className="hash-row">
          <code className="hash" aria-label="Archive SHA-256">
            {summary.sha256}
          </code>
          <CopyButton value={summary.sha256} label="Copy the SHA-256" />
        </dd>
        <dt>SDK</dt>
        <dd>
          {details.sdkSupported ? (
            <span className="text-ok">
              <CheckCircle2 aria-hidden="true" size={14} /> Fits this app (it asks for{' '}
              <code>
                <PackageText text={manifest.package.sdk} />
              </code>
              ; this app serves {details.sdkVersion})
            </span>
          ) : (
            <span className="text-warning">
              <AlertTriangle aria-hidden="true" size={14} /> Does not fit this app: it asks for{' '}
              <code>
                <PackageText text={manifest.package.sdk} />
              </code>
              , this app serves {details.sdkVersion}
            </span>
          )}
        </dd>
      </dl>

      <section aria-labelledby="risk-heading" className="panel">
        <h3 id="risk-heading">What this package could do</h3>
        {can.length === 0 ? <p className="muted">It declares nothing that reaches outside the package.</p> : null}
        <ul className="risk-list">
          {can.map((line, i) => (
            <li key={i} className={`risk risk-${line.level}`}>
              <RiskIcon line={line} /> <CodeText text={line.text} /> {line.family ? <FamilyBadge family={line.family} /> : null}
            </li>
          ))}
        </ul>
        {textWarnings.length > 0 ? (
          <>
            <h4>Text that could mislead you</h4>
            <ul className="risk-list" aria-label="Text warnings">
              {textWarnings.map((warning, i) => (
                <li key={i} className="risk risk-sensitive">
                  <ShieldAlert aria-hidden="true" size={18} /> <PackageText text={warning.message} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {cannot.length > 0 ? (
          <>
            <h4>What it cannot do</h4>
            <ul className="risk-list">
              {cannot.map((line, i) => (
                <li key={i} className="risk risk-cannot">
                  <RiskIcon line={line} /> <CodeText text={line.text} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>

      {inspection.warnings.length > 0 ? (
        <section aria-labelledby="warnings-heading" className="panel panel-warning">
          <h3 id="warnings-heading">Warnings</h3>
          <ProblemList problems={inspection.warnings} />
        </section>
      ) : null}
    </div>
  );
}
