/**
 * Adding a key of one's own, locked at the control when the organization's policy counts only its keys
 * (`allowUserTrustedKeys: false`, DESIGN.md "Managed policy"): said before any fingerprint or name is asked, so the
 * person learns the rule first instead of a refusal at the end.
 */
import { Lock } from 'lucide-react';
import { useSettings } from '../../../api/hooks';

/** The organization's reason when it does not let the person trust keys of their own, or null. */
export function useUserKeysLocked(): string | null {
  const settings = useSettings();
  return settings.data?.policy?.effective?.allowUserTrustedKeys === false
    ? 'your organization counts only the publisher keys it trusts: you cannot add your own'
    : null;
}

export function UserKeysLocked({ reason }: { reason: string }) {
  return (
    <p className="panel small" role="note">
      <Lock aria-hidden="true" size={12} /> Adding a key is locked by your organization: {reason}. Your administrator
      can add a publisher's key to the policy.
    </p>
  );
}
