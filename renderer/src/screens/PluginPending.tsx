import type { Inspection } from '../../../shared/inspection';
import { RefusedScreen } from './apo/RefusedScreen';

/** Placeholder for `kind: 'plugin'` until the plugin view (screens/plugin/) is wired in: plugins are shown read-only. */
export function PluginPending({ inspection, displayName }: { inspection: Inspection; displayName: string }) {
  if (!inspection.ok) return <RefusedScreen inspection={inspection} displayName={displayName} />;
  return (
    <div className="screen">
      <h1>Plugin manifest: {displayName}</h1>
      <p>Plugin manifests are shown read-only: this app never installs or runs a plugin. The detailed view of this manifest is coming in a later version.</p>
    </div>
  );
}
