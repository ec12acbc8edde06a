import type { SourceHandle } from '../../../shared/contract/api';
import { useInspection } from '../../api/hooks';
import { ErrorPanel, Loading } from '../components/Status';
import { ApoFlow } from './apo/ApoFlow';
import { RefusedScreen } from './RefusedScreen';
import { FeedSourceNote } from './updates/FeedSourceNote';
import { lazy, Suspense } from 'react';

// The `.apo` consent flow is on the first paint of an opened package; a template's and a plugin's
// load when one is opened.
const PluginView = lazy(() => import('./plugin/PluginView').then((m) => ({ default: m.PluginView })));
const TemplateFlow = lazy(() => import('./template/TemplateFlow').then((m) => ({ default: m.TemplateFlow })));

/**
 * One opened source: checked first, then shown by kind. `kind: 'plugin'` is routed to the
 * read-only plugin view (renderer/src/screens/plugin/).
 */
export function SourceScreen({ source }: { source: SourceHandle }) {
  const inspection = useInspection(source.id);
  if (inspection.isPending) return <Loading label={`Checking ${source.displayName} without running any of it…`} />;
  if (inspection.isError) {
    return (
      <div className="screen">
        <h1>{source.displayName} could not be checked</h1>
        <ErrorPanel error={inspection.error} title="The check did not finish" />
      </div>
    );
  }
  const result = inspection.data;
  switch (result.kind) {
    case 'apo':
      return (
        <>
          {source.feed ? <FeedSourceNote feed={source.feed} /> : null}
          <ApoFlow inspection={result} sourceId={source.id} displayName={source.displayName} />
        </>
      );
    case 'template':
      return result.ok ? (
        <Suspense fallback={<Loading label={`Opening ${source.displayName}…`} />}>
          <TemplateFlow inspection={result} sourceId={source.id} builtin={source.origin === 'builtin'} />
        </Suspense>
      ) : (
        <RefusedScreen inspection={result} displayName={source.displayName} sourceId={source.id} />
      );
    case 'plugin':
      return (
        <Suspense fallback={<Loading label={`Opening ${source.displayName}…`} />}>
          <PluginView inspection={result} displayName={source.displayName} sourceId={source.id} />
        </Suspense>
      );
  }
}
