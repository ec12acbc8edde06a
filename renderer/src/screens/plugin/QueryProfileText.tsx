/** The plugin screen's query-surface section: how the plugin's data is queried, in words. */
import { type PluginDatasetView, type QueryProfileView } from '../../../../shared/manifests/plugin-manifest';
import { PackageText } from '../../components/PackageText';

/** How the plugin's data is queried (spec "Query-profile"), in words. */
export function QueryProfileText({ profile, datasets }: { profile: QueryProfileView; datasets: PluginDatasetView[] }) {
  switch (profile.kind) {
    case 'pushdown':
      return (
        <>
          <p>Queries are pushed down to the source instead of fetching everything:</p>
          <ul>
            {datasets
              .filter((d) => d.pushdown !== null)
              .map((d) => (
                <li key={d.name}>
                  <code>
                    <PackageText text={d.name} max={80} />
                  </code>
                  : {d.pushdown!.operations.join(', ') || 'no operations'}
                  {d.pushdown!.aggregates.length > 0 ? (
                    <>
                      {' '}
                      (aggregates: <PackageText text={d.pushdown!.aggregates.join(', ')} max={120} />)
                    </>
                  ) : null}
                </li>
              ))}
          </ul>
        </>
      );
    case 'bounded_fetch':
      return (
        <p>
          The host fetches complete, bounded results and computes on them
          {profile.datasets.length > 0 ? (
            <>
              {' '}
              (datasets: <PackageText text={profile.datasets.join(', ')} />)
            </>
          ) : null}
          {profile.autoAdaptedTools.length > 0 ? (
            <>
              {' '}
              (tools returning plain rows: <PackageText text={profile.autoAdaptedTools.join(', ')} />)
            </>
          ) : null}
          .
        </p>
      );
    case 'opt_out':
      return (
        <p>
          The plugin opts out of queries, saying: “<PackageText text={profile.rationale} multiline max={400} />”
        </p>
      );
    case 'none':
      return <p className="muted">It has no read tools, so it declares no query profile.</p>;
  }
}
