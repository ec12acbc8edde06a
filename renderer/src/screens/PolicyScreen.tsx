/**
 * The policy page (DESIGN.md "Managed policy"): who sets the policy on this computer and from where
 * — a trial policy from the person's own APOLLIA_POLICY_FILE is said so —, each rule in words with its source, and
 * what it changes here now (the core's one evaluation for every door), each with a request to copy for the
 * administrator.
 */
import { Building2, Lock } from 'lucide-react';
import { usePolicyPage } from '../../api/hooks';
import { AdminRequest } from '../components/AdminRequest';
import { PackageText } from '../components/PackageText';
import { ErrorPanel, Loading } from '../components/Status';

export function PolicyScreen() {
  const page = usePolicyPage();
  return (
    <div className="screen">
      <h1>Your organization's policy</h1>
      {page.isPending ? <Loading label="Reading the policy…" /> : null}
      {page.isError ? <ErrorPanel error={page.error} title="The policy could not be read" /> : null}
      {page.data ? (
        <>
          <section
            className={`panel ${page.data.policy.state === 'unreadable' ? 'panel-error' : page.data.trial ? 'panel-warning' : 'panel-info'}`}
            aria-labelledby="policy-who"
          >
            <h2 id="policy-who">
              <Building2 aria-hidden="true" size={18} /> {page.data.heading}
            </h2>
            {page.data.trial ? (
              <p>
                This policy comes from a file you named yourself with <code>APOLLIA_POLICY_FILE</code>: a trial, as an
                administrator tries one. It only adds restrictions; it is not a policy your organization set on this
                computer.
              </p>
            ) : null}
            {page.data.policy.state === 'unreadable' ? (
              <>
                <p>
                  The file <code>{page.data.policy.problem?.path}</code>: {page.data.policy.problem?.message}.
                </p>
                <p>
                  Until it is fixed nothing can be installed, applied, granted or armed, and every armed trigger is
                  paused. Your administrator can act.
                </p>
                <AdminRequest
                  code="policy.unreadable"
                  refused={`the policy file ${page.data.policy.problem?.path ?? ''} cannot be used: ${page.data.policy.problem?.message ?? ''}`}
                  subject={null}
                />
              </>
            ) : null}
            {page.data.policy.state === 'none' ? (
              <p>Nothing is locked: every choice on this computer is yours.</p>
            ) : null}
          </section>

          <section aria-labelledby="policy-sources">
            <h2 id="policy-sources">Where it is read from</h2>
            <ul>
              {page.data.sources.map((source) => (
                <li key={source}>
                  <PackageText text={source} />
                </li>
              ))}
            </ul>
          </section>

          {page.data.rules.length > 0 ? (
            <section aria-labelledby="policy-rules">
              <h2 id="policy-rules">What it sets</h2>
              <dl className="policy-rules">
                {page.data.rules.map((rule) => (
                  <div key={rule.key}>
                    <dt>
                      <Lock aria-hidden="true" size={12} /> <PackageText text={rule.words} />
                    </dt>
                    <dd className="small muted">
                      <code>{rule.key}</code>, from {rule.from.join(' and ')}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ) : null}

          {page.data.policy.state !== 'none' ? (
            <section aria-labelledby="policy-effects">
              <h2 id="policy-effects">What it changes on this computer now</h2>
              {page.data.effects.length === 0 ? (
                <p>Nothing installed here is held by it.</p>
              ) : (
                <>
                  <p>Your own decisions are kept: each applies again when the policy allows it.</p>
                  <ul className="rows">
                    {page.data.effects.map((effect) => (
                      <li key={`${effect.kind} ${effect.what}`} className="row row-block">
                        <p>
                          <strong>
                            <PackageText text={effect.what} />
                          </strong>
                        </p>
                        <p className="small">
                          Why: <PackageText text={effect.why} />
                        </p>
                        {effect.code ? (
                          <AdminRequest
                            code={effect.code}
                            refused={`${effect.what}: ${effect.why}`}
                            subject={effect.subject}
                          />
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
