/** The plugin screen's capability cards: each capability with its tools, their access class and approval. */
import { BookOpen, PenLine, ShieldCheck, UserCog } from 'lucide-react';
import {
  roleFloorWords,
  type PluginCapabilityView,
  type PluginToolView,
} from '../../../../shared/manifests/plugin-manifest';
import { PackageText } from '../../components/PackageText';

/** One tool of the plugin: its name, access class, idempotence and description. */
export function ToolRow({ tool }: { tool: PluginToolView }) {
  return (
    <li className="tool-row">
      <span className="tool-head">
        <code>
          <PackageText text={tool.name} max={80} />
        </code>
        {tool.access_class === 'write' ? (
          <span className="badge badge-write">
            <PenLine aria-hidden="true" size={12} /> Writes
          </span>
        ) : (
          <span className="badge badge-read">
            <BookOpen aria-hidden="true" size={12} /> Reads only
          </span>
        )}
        {tool.access_class === 'write' ? (
          tool.idempotent ? (
            <span
              className="badge badge-neutral"
              title="Running it again with the same input leaves things as the first run did"
            >
              Safe to repeat
            </span>
          ) : (
            <span
              className="badge badge-warning-soft"
              title="Each run makes something new: running it twice does it twice"
            >
              Each run makes something new
            </span>
          )
        ) : null}
      </span>
      {tool.description ? (
        <span className="small">
          <PackageText text={tool.description} multiline max={300} />
        </span>
      ) : (
        <span className="small muted">No description.</span>
      )}
    </li>
  );
}

/** One capability of the plugin, with its tools. */
export function CapabilityCard({ capability, tools }: { capability: PluginCapabilityView; tools: PluginToolView[] }) {
  const headingId = `capability-${capability.name.replace(/[^a-z0-9_-]/gi, '_')}`;
  return (
    <li className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <PackageText text={capability.name} max={80} />
        {capability.approval_required ? (
          <span className="badge badge-ask">
            <ShieldCheck aria-hidden="true" size={12} /> Needs approval each time
          </span>
        ) : (
          <span className="badge badge-neutral">No approval step</span>
        )}
      </h3>
      <p className="small">
        <UserCog aria-hidden="true" size={14} /> Who may use it:{' '}
        <strong>{roleFloorWords(capability.minimum_role)}</strong>
        {capability.minimum_role ? (
          <>
            {' '}
            (<code>{capability.minimum_role}</code>)
          </>
        ) : null}
      </p>
      {capability.description ? (
        <p>
          <PackageText text={capability.description} multiline max={400} />
        </p>
      ) : null}
      {capability.routing_hints.length > 0 || capability.routing_examples.length > 0 ? (
        <details>
          <summary>When the assistant picks it</summary>
          {capability.routing_hints.map((hint, i) => (
            <p key={`h${i}`} className="small">
              <PackageText text={hint} multiline max={400} />
            </p>
          ))}
          {capability.routing_examples.length > 0 ? (
            <ul className="small">
              {capability.routing_examples.map((example, i) => (
                <li key={`e${i}`}>
                  <PackageText text={example} max={200} />
                </li>
              ))}
            </ul>
          ) : null}
        </details>
      ) : null}
      <h4>Tools ({tools.length})</h4>
      {tools.length === 0 ? (
        <p className="small muted">No tools under this capability.</p>
      ) : (
        <ul className="tool-list">
          {tools.map((tool) => (
            <ToolRow key={tool.name} tool={tool} />
          ))}
        </ul>
      )}
    </li>
  );
}
