import { useState, type ReactNode } from 'react';
import {
  type ApolliaManifest,
  type McpServerEntry,
  type RequiresEntry,
  type ToolEntry,
  isPinnedRequirement,
  mcpCommandLine,
} from '../../../../shared/manifests/apollia-manifest';
import { CONNECTION_TYPES } from '../../../../shared/manifests/catalogues';
import { unpinnedLaunch } from '../../../../shared/decisions/verdict';
import { FamilyBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { countOf } from './UpdateMark';

/**
 * One group of the review: a heading and a disclosure. A group longer than `openUpTo` items starts
 * closed, its summary still saying how many there are, so a long package's review stays scannable, unless it holds
 * something risky (`openAnyway`).
 */
export function ReviewGroup({
  id,
  title,
  count,
  summary,
  openUpTo = 12,
  always = false,
  openAnyway = false,
  children,
}: {
  id: string;
  title: string;
  count: number;
  summary: string;
  openUpTo?: number;
  always?: boolean;
  /** Starts open however long it is: it holds something risky (a sensitive tool granted). */
  openAnyway?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(count <= openUpTo || openAnyway);
  if (count === 0 && !always) return null;
  return (
    <section aria-labelledby={id} className="review-group">
      <h3 id={id}>{title}</h3>
      {count === 0 ? (
        <p className="muted small">{summary}</p>
      ) : (
        <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
          <summary>{summary}</summary>
          {/* A closed group draws nothing: a package of thousands of tools keeps the step light. */}
          {open ? children : null}
        </details>
      )}
    </section>
  );
}

/** A tool or a workflow of the package: Python code that runs with the person's permissions. */
export interface PackageCode {
  kind: 'Tool' | 'Workflow';
  item: ToolEntry;
}

/** What the package brings that runs or is granted apart from its agents' access and its triggers. */
export interface ReviewParts {
  /** MCP servers started on this computer (those with a command line). */
  programs: McpServerEntry[];
  /** MCP servers reached over the network (no command line). */
  remote: McpServerEntry[];
  code: PackageCode[];
  requires: RequiresEntry[];
  pip: string[];
}

/** The manifest's programs, outside servers, code, connections and Python packages, as the review groups them. */
export function reviewParts(manifest: ApolliaManifest): ReviewParts {
  const servers = manifest.mcp_servers ?? [];
  return {
    programs: servers.filter((server) => mcpCommandLine(server) !== ''),
    remote: servers.filter((server) => mcpCommandLine(server) === ''),
    code: [
      ...(manifest.tools ?? []).map((item): PackageCode => ({ kind: 'Tool', item })),
      ...(manifest.workflows ?? []).map((item): PackageCode => ({ kind: 'Workflow', item })),
    ],
    requires: manifest.requires ?? [],
    pip: manifest.pip?.packages ?? [],
  };
}

/** The kinds of part the package has none of, named for the "Nothing else to run or grant" line. */
export function absentParts({ programs, remote, code, requires, pip }: ReviewParts): string[] {
  return [
    programs.length === 0 ? 'programs' : '',
    remote.length === 0 ? 'outside servers' : '',
    code.length === 0 ? 'Python code' : '',
    requires.length === 0 ? 'connections to your accounts' : '',
    pip.length === 0 ? 'Python packages' : '',
  ].filter(Boolean);
}

/** The programs it starts here: each command line, whether it is pinned, and the environment it is given. */
export function ProgramsGroup({ programs }: { programs: McpServerEntry[] }) {
  return (
    <ReviewGroup
      id="review-programs"
      title="Programs it starts on this computer"
      count={programs.length}
      summary={
        programs.length === 0
          ? 'None.'
          : `${countOf(programs.length, 'program', 'programs')}, started when an agent uses one of their tools`
      }
    >
      <ul className="rows">
        {programs.map((server) => (
          <ProgramRow key={server.name} server={server} />
        ))}
      </ul>
    </ReviewGroup>
  );
}

function ProgramRow({ server }: { server: McpServerEntry }) {
  const env = Object.keys(server.env ?? {});
  return (
    <li className="row row-block">
      <p>
        <strong>
          <PackageText text={server.name} />
        </strong>
        :{' '}
        <code className="command">
          <PackageText text={mcpCommandLine(server)} />
        </code>
        {unpinnedLaunch(server) !== null ? (
          <>
            {' '}
            <span className="badge badge-warning-soft">Not pinned: can change after you consent</span>
          </>
        ) : null}
      </p>
      <p className="small">
        {env.length === 0 ? (
          'It is given no environment variables by the package.'
        ) : (
          <>
            Environment variables it is given:{' '}
            {env.map((key) => (
              <code key={key} className="env-key">
                <PackageText text={`${key}=${server.env?.[key] ?? ''}`} />
              </code>
            ))}
          </>
        )}
      </p>
    </li>
  );
}

/** The servers outside this computer it connects to, with their addresses. */
export function ServersGroup({ remote }: { remote: McpServerEntry[] }) {
  return (
    <ReviewGroup
      id="review-servers"
      title="Servers it connects to"
      count={remote.length}
      summary={remote.length === 0 ? 'None.' : `${countOf(remote.length, 'server', 'servers')} outside this computer`}
    >
      <ul className="rows">
        {remote.map((server) => (
          <li key={server.name} className="row">
            <strong>
              <PackageText text={server.name} />
            </strong>
            :{' '}
            <code className="command">
              <PackageText text={server.url ?? '(no address)'} />
            </code>
          </li>
        ))}
      </ul>
    </ReviewGroup>
  );
}

/** Its tools and workflows: what each says it does, where its code is, and the kind of action it declares. */
export function CodeGroup({ code }: { code: PackageCode[] }) {
  return (
    <ReviewGroup
      id="review-code"
      title="Its Python code"
      count={code.length}
      summary={
        code.length === 0
          ? 'None.'
          : `${countOf(code.length, 'tool or workflow', 'tools and workflows')}; the code runs with your permissions`
      }
    >
      <ul className="rows">
        {code.map(({ kind, item }) => (
          <li key={`${kind}:${item.name}`} className="row">
            <span className="row-main">
              <PackageText text={item.description} />
              <span className="small muted block">
                {kind}{' '}
                <code>
                  <PackageText text={item.name} />
                </code>{' '}
                in{' '}
                <code>
                  <PackageText text={item.module} />
                </code>
              </span>
            </span>
            <span className="row-badges">
              <FamilyBadge family={item.action} />
            </span>
          </li>
        ))}
      </ul>
    </ReviewGroup>
  );
}

/** The connections to the person's accounts it uses, with the reason it gives. */
export function ConnectionsGroup({ requires }: { requires: RequiresEntry[] }) {
  return (
    <ReviewGroup
      id="review-connections"
      title="Connections it uses"
      count={requires.length}
      summary={
        requires.length === 0
          ? 'None.'
          : requires.map((r) => CONNECTION_TYPES.find((c) => c.type === r.type)?.label ?? r.type).join(', ')
      }
    >
      <ul className="rows">
        {requires.map((requirement) => (
          <li key={requirement.type} className="row">
            <code>
              <PackageText text={requirement.type} />
            </code>
            {requirement.reason ? (
              <span className="small">
                <PackageText text={requirement.reason} />
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </ReviewGroup>
  );
}

/** The Python packages it installs, an unpinned one marked: any version of it could be installed. */
export function PipGroup({ pip }: { pip: string[] }) {
  const unpinnedPip = pip.filter((requirement) => !isPinnedRequirement(requirement));
  return (
    <ReviewGroup
      id="review-pip"
      title="Python packages it installs"
      count={pip.length}
      summary={
        pip.length === 0
          ? 'None.'
          : `${countOf(pip.length, 'package', 'packages')}${unpinnedPip.length > 0 ? `, ${unpinnedPip.length} not pinned to one version` : ', each pinned to one version'}`
      }
    >
      <ul className="rows">
        {pip.map((requirement) => (
          <li key={requirement} className="row">
            <code>
              <PackageText text={requirement} />
            </code>
            {isPinnedRequirement(requirement) ? null : (
              <span className="badge badge-warning-soft">Not pinned: any version could be installed</span>
            )}
          </li>
        ))}
      </ul>
    </ReviewGroup>
  );
}
