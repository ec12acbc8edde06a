import type { ReactNode } from 'react';
import type { AgentEntry } from '../../../../shared/manifests/apollia-manifest';
import { AUTONOMY_WORDS, PLANNING_WORDS } from '../../../../shared/words/words';
import { PackageText } from '../../components/PackageText';
import { countOf, UpdateMark } from './UpdateMark';

/** What an agent may read (`defaults.sources`), in words: the profile and memory by name, any other source by its id. */
function SourcesWords({ sources }: { sources: readonly string[] }) {
  return (
    <>
      {sources.map((source, i) => (
        <span key={i}>
          {i > 0 ? '; ' : ''}
          {source === 'profile' ? (
            'your user profile'
          ) : source === 'memory' ? (
            'its own memory (it may also write to it)'
          ) : (
            <>
              the source{' '}
              <code>
                <PackageText text={source} />
              </code>
            </>
          )}
        </span>
      ))}
    </>
  );
}

/** A setting in words, its raw value after it in small muted code (autonomy, planning). */
function WordsThenValue({ words, value }: { words: Record<string, string>; value: string }) {
  return (
    <>
      {words[value] ?? value}{' '}
      <span className="muted">
        (<code>{value}</code>)
      </span>
    </>
  );
}

/** How an agent works by default: autonomy, planning, what it may read, the model it recommends. */
function AgentFacts({ agent }: { agent: AgentEntry }) {
  const defaults = agent.defaults;
  return (
    <dl className="facts small">
      {defaults?.autonomy ? (
        <>
          <dt>How on its own it works</dt>
          <dd>
            <WordsThenValue words={AUTONOMY_WORDS} value={defaults.autonomy} />
          </dd>
        </>
      ) : null}
      {defaults?.planning ? (
        <>
          <dt>Planning</dt>
          <dd>
            <WordsThenValue words={PLANNING_WORDS} value={defaults.planning} />
          </dd>
        </>
      ) : null}
      {defaults?.sources && defaults.sources.length > 0 ? (
        <>
          <dt>What it may read</dt>
          <dd>
            <SourcesWords sources={defaults.sources} />
          </dd>
        </>
      ) : null}
      {defaults?.model?.model ? (
        <>
          <dt>Model it recommends</dt>
          <dd>
            <PackageText text={defaults.model.model} />
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * One agent of the package on the Access step: its name, what it is for, the access list (`access`,
 * drawn by the step, which holds the decisions) and how it works. Its details start open for the
 * first agents and for any an update changed.
 */
export function AgentCard({
  agent,
  isNew,
  open,
  access,
}: {
  agent: AgentEntry;
  isNew: boolean;
  open: boolean;
  access: ReactNode;
}) {
  const entries = agent.defaults?.access ?? [];
  return (
    <article className="card card-wide" aria-labelledby={`agent-${agent.id}`}>
      <h4 id={`agent-${agent.id}`}>
        <PackageText text={agent.name} /> <span className="muted small">({agent.id})</span>{' '}
        {isNew ? <UpdateMark mark={{ kind: 'new' }} /> : null}
      </h4>
      <details className="agent-details" open={open}>
        <summary>What it is for, and the {countOf(entries.length, 'tool', 'tools')} it asks for</summary>
        <p>
          <strong>Mission:</strong> <PackageText text={agent.mission} />
        </p>
        {agent.examples && agent.examples.length > 0 ? (
          <>
            <p className="small muted">Example requests:</p>
            <ul className="small">
              {agent.examples.map((example, i) => (
                <li key={i}>
                  <PackageText text={example} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {entries.length === 0 ? <p className="muted">It asks for no tools: it can only answer in words.</p> : access}
        <AgentFacts agent={agent} />
      </details>
    </article>
  );
}
