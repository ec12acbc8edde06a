import { useMemo } from 'react';
import { ownerDenies } from '../../../shared/manifests/owner-tools';
import { useSettings } from '../../api/hooks';

/**
 * The owner's "never allow" list as a test of one entry (it holds for `.apo`
 * installs too). Until settings load, nothing is shown as denied; install refuses a denied grant
 * either way (`install.denied_tool`).
 */
export function useOwnerDenied(): (entry: string) => boolean {
  const settings = useSettings();
  const denied = settings.data?.deniedTools;
  return useMemo(() => (entry: string) => ownerDenies(denied ?? [], entry), [denied]);
}
