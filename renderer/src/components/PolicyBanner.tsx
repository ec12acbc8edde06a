import { Building2 } from 'lucide-react';
import { managedBy, type PolicyView } from '../../../shared/policy/policy';
import { policyHeading, policyIsTrial } from '../../../shared/policy/policy-words';
import { useFlowStore } from '../stores/flow-store';

/**
 * The organization's policy, said where it applies (DESIGN.md "Managed policy"): "Managed by …"
 * with what it does here (`notice`), or, when its file cannot be used, that file and what is
 * wrong with it (nothing can be installed, applied, granted or armed). Nothing without a policy.
 */
export function PolicyBanner({ view, notice }: { view: PolicyView | undefined; notice?: string | null }) {
  const show = useFlowStore((s) => s.show);
  if (!view || view.state === 'none') return null;
  if (view.state === 'unreadable') {
    return (
      <section className="panel panel-error policy-banner" role="alert" aria-label="Your organization's policy">
        <p>
          <Building2 aria-hidden="true" size={16} /> <strong>Your organization's policy cannot be used.</strong> The
          file <code>{view.problem?.path}</code>: {view.problem?.message}.
        </p>
        <p className="small">
          Until it is fixed nothing can be installed, applied, granted or armed, and every armed trigger is paused. Your
          administrator can act.{' '}
          <button type="button" className="link-button link-inline" onClick={() => show('policy')}>
            See the policy page
          </button>
        </p>
      </section>
    );
  }
  const trial = policyIsTrial(view);
  return (
    <section className="panel panel-info policy-banner" role="status" aria-label="Your organization's policy">
      <p>
        <Building2 aria-hidden="true" size={16} /> <strong>{trial ? policyHeading(view) : managedBy(view)}.</strong>{' '}
        {notice ??
          (trial
            ? 'What it does not allow is locked here, as it would be under your organization.'
            : 'What its policy does not allow is locked, and your administrator can change it.')}{' '}
        <button type="button" className="link-button link-inline" onClick={() => show('policy')}>
          See what it sets
        </button>
      </p>
    </section>
  );
}
