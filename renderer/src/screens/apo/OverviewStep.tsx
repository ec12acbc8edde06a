import { AlertTriangle, CheckCircle2, Info, ShieldAlert, ShieldCheck } from 'lucide-react';
import { memo } from 'react';
import type { SourceInspection, SignatureVerdict } from '../../../../shared/contract/api';
import type { ApoDetails, ApoInspection } from '../../../../shared/manifests/inspection';
import type { ApolliaManifest } from '../../../../shared/manifests/apollia-manifest';
import { signatureVerdictOf, signatureVerdictWords } from '../../../../shared/trust/signature-verdict';
import { NameDifferenceList } from '../../components/trust/NameDifferenceList';
import { TrustKeyOffer } from '../../components/trust/TrustedPublishers';
import { APOLLIA_NATIVE_TOOLS } from '../../../../shared/manifests/catalogues';
import { riskSummary, type RiskLine } from '../../../../shared/decisions/risk-summary';
import { enforcedRules, packageVerdict } from '../../../../shared/decisions/verdict';
import { VerdictPanel } from '../../components/VerdictPanel';
import { type TextSafetyWarning, textSafetyReport } from '../../../../shared/words/display-text';
import { manifestTextFields } from '../../../../shared/words/manifest-text-fields';
import { CopyButton } from '../../components/CopyButton';
import { FamilyBadge } from '../../components/FamilyBadge';
import { CodeText } from '../../components/CodeText';
import { PackageText } from '../../components/PackageText';
import { ProblemList } from '../../components/ProblemList';

function RiskIcon({ line }: { line: RiskLine }) {
  if (line.level === 'sensitive') return <ShieldAlert aria-hidden="true" size={18} className="risk-icon" />;
  return <Info aria-hidden="true" size={18} className="risk-icon" />;
}

/**
 * The publisher name with the inspection's one signature verdict (verified by the key you trust as
 * NAME, unknown key, unsigned, invalid, built in). Where the trusted key's name and the package's
 * publisher field differ, no plain check: the words say so, with the lookalike highlight.
 */
export function PublisherLine({ publisher, verdict }: { publisher: string; verdict: SignatureVerdict }) {
  const words = signatureVerdictWords(verdict);
  const Icon = words.tone === 'allow' ? ShieldCheck : AlertTriangle;
  const tone = words.tone === 'allow' ? 'badge-allow' : 'badge-warning-soft';
  return (
    <>
      <p className="publisher-line">
        From{' '}
        <strong>
          <PackageText text={publisher} />
        </strong>{' '}
        <span className={`badge ${tone}`} data-publisher-state={words.state} data-testid="publisher-badge">
          <Icon aria-hidden="true" size={12} /> <PackageText text={words.label} />
        </span>{' '}
        <span className="small muted">
          <PackageText text={words.explanation} />
        </span>
      </p>
      {words.updateNote && verdict.update ? (
        <p className="small" data-signature-update={verdict.update.change}>
          <PackageText text={words.updateNote} />
        </p>
      ) : null}
      {words.namesNote ? (
        <div className="panel panel-warning" role="note" data-testid="publisher-names-differ">
          <p>
            <AlertTriangle aria-hidden="true" size={16} /> <PackageText text={words.namesNote} />
          </p>
          {verdict.names === 'lookalike' && verdict.signature.signer ? (
            <NameDifferenceList
              expected={verdict.signature.signer}
              shown={publisher}
              expectedWords="the name you gave the key"
            />
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** Text of the package that could mislead (invisible or lookalike characters), one warning per field and kind. */
function TextWarnings({ warnings }: { warnings: TextSafetyWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <section aria-labelledby="text-warnings-heading" className="panel panel-warning">
      <h3 id="text-warnings-heading">Text that could mislead you</h3>
      <ul className="risk-list" aria-label="Text warnings">
        {warnings.map((warning, i) => (
          <li key={i} className="risk risk-sensitive">
            <ShieldAlert aria-hidden="true" size={18} className="risk-icon" />{' '}
            <span className="risk-text">
              <PackageText text={warning.message} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the package says of itself: its author's word, kept apart from what Apollia enforces. */
function DeclaredPanel({ declared, hasCode }: { declared: RiskLine[]; hasCode: boolean }) {
  return (
    <section aria-labelledby="declared-heading" className="panel">
      <h3 id="declared-heading">What the package declares</h3>
      {hasCode ? (
        <p className="panel-note">
          <AlertTriangle aria-hidden="true" size={16} /> It brings Python code. That code runs with your permissions;
          the kinds of action it declares below are its author's word, not something Apollia checks.
        </p>
      ) : null}
      {declared.length === 0 ? <p className="muted">It declares nothing that reaches outside the package.</p> : null}
      <ul className="risk-list">
        {declared.map((line, i) => (
          <li key={i} className={`risk risk-${line.level}`}>
            <RiskIcon line={line} />
            <span className="risk-text">
              <CodeText text={line.text} />
            </span>
            {line.family ? <FamilyBadge family={line.family} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What Apollia holds the package to, whatever it declares, and what none of the tools it may be given can do. */
function EnforcedPanel({ manifest, cannot }: { manifest: ApolliaManifest; cannot: RiskLine[] }) {
  return (
    <section aria-labelledby="enforced-heading" className="panel">
      <h3 id="enforced-heading">What Apollia enforces</h3>
      <ul className="risk-list">
        {enforcedRules(manifest).map((rule, i) => (
          <li key={i} className="risk risk-enforced">
            <CheckCircle2 aria-hidden="true" size={18} className="risk-icon" />{' '}
            <span className="risk-text">{rule}</span>
          </li>
        ))}
        {cannot.map((line, i) => (
          <li key={`cannot-${i}`} className="risk risk-enforced">
            <CheckCircle2 aria-hidden="true" size={18} className="risk-icon" />{' '}
            <span className="risk-text">
              <CodeText text={line.text} /> (none of the tools it may be given does)
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Name, version, description, the archive's hash (to copy) and whether its SDK fits this app. */
function AboutPackage({ details, sha256 }: { details: ApoDetails; sha256: string }) {
  const manifest = details.manifest;
  return (
    <section aria-labelledby="about-heading">
      <h3 id="about-heading">About the package</h3>
      <dl className="facts facts-wide">
        <dt>Name</dt>
        <dd>
          <PackageText text={manifest.package.name} />
        </dd>
        <dt>Version</dt>
        <dd>
          <PackageText text={manifest.package.version} />
        </dd>
        <dt>What it does</dt>
        <dd>
          {manifest.package.description ? (
            <PackageText text={manifest.package.description} />
          ) : (
            <span className="muted">The package gives no description.</span>
          )}
        </dd>
        <dt>Archive SHA-256</dt>
        <dd className="hash-row">
          <code className="hash" aria-label="Archive SHA-256">
            {sha256}
          </code>
          <CopyButton value={sha256} label="Copy the SHA-256" />
        </dd>
        <dt>SDK</dt>
        <dd>
          <SdkFit details={details} />
        </dd>
      </dl>
    </section>
  );
}

/** Whether the SDK the package asks for is one this app serves. */
function SdkFit({ details }: { details: ApoDetails }) {
  return details.sdkSupported ? (
    <span className="text-ok">
      <CheckCircle2 aria-hidden="true" size={14} /> Fits this app (it asks for{' '}
      <code>
        <PackageText text={details.manifest.package.sdk} />
      </code>
      ; this app serves {details.sdkVersion})
    </span>
  ) : (
    <span className="text-warning">
      <AlertTriangle aria-hidden="true" size={14} /> Does not fit this app: it asks for{' '}
      <code>
        <PackageText text={details.manifest.package.sdk} />
      </code>
      , this app serves {details.sdkVersion}
    </span>
  );
}

/**
 * Step 1: the verdict first (visible without scrolling at 800×600), who it says it is from, then
 * what the package declares apart from what Apollia enforces, then name, version, hash and SDK.
 * Memoised: its verdict, risk lines and text check depend on the inspection alone, so the wizard
 * redrawing (a tick, a step) does not redo them over a large manifest.
 */
export const OverviewStep = memo(function OverviewStep({
  inspection,
}: {
  inspection: ApoInspection & Partial<Pick<SourceInspection, 'signatureVerdict'>>;
}) {
  const details = inspection.details;
  const summary = inspection.summary;
  if (!details || !summary) return null;
  const manifest = details.manifest;
  const verdict = packageVerdict(manifest, APOLLIA_NATIVE_TOOLS);
  const lines = riskSummary(manifest, APOLLIA_NATIVE_TOOLS);
  const declared = lines.filter((line) => line.level !== 'cannot');
  const cannot = lines.filter((line) => line.level === 'cannot');
  const hasCode = (manifest.tools?.length ?? 0) + (manifest.workflows?.length ?? 0) > 0;
  const textWarnings = textSafetyReport(manifestTextFields(manifest));
  return (
    <div className="step-body">
      <VerdictPanel verdict={verdict} />
      <PublisherLine
        publisher={manifest.package.publisher}
        verdict={inspection.signatureVerdict ?? signatureVerdictOf(summary.signature, summary.publisher)}
      />
      {summary.signature?.state === 'unknown_key' && <TrustKeyOffer keyId={summary.signature.key_id ?? ''} />}
      <TextWarnings warnings={textWarnings} />
      <DeclaredPanel declared={declared} hasCode={hasCode} />
      <EnforcedPanel manifest={manifest} cannot={cannot} />
      <AboutPackage details={details} sha256={summary.sha256} />
      {inspection.warnings.length > 0 ? (
        <section aria-labelledby="warnings-heading" className="panel panel-warning">
          <h3 id="warnings-heading">Warnings</h3>
          <ProblemList problems={inspection.warnings} />
        </section>
      ) : null}
    </div>
  );
});
