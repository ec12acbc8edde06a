import { AlertTriangle, CheckCircle2, Settings, XCircle } from 'lucide-react';
import {
  type McpServerEntry,
  type RequiresEntry,
  isPinnedRequirement,
  mcpCommandLine,
} from '../../../../shared/manifests/apollia-manifest';
import { CONNECTION_TYPES } from '../../../../shared/manifests/catalogues';
import { secretLookingNames } from '../../../../shared/manifests/secret-names';
import { unpinnedLaunch } from '../../../../shared/decisions/verdict';
import { transportWords } from '../../../../shared/words/words';
import { FamilyBadge } from '../../components/FamilyBadge';
import { PackageText } from '../../components/PackageText';
import { useFlowStore } from '../../stores/flow-store';

/**
 * What setting up a connection means here ("no dead ends"): this app knows a connection by an MCP
 * server saved under its type's name (SettingsView.connections), so the way there is Settings → MCP servers.
 */
function ConnectionSetup({ type, label }: { type: string; label: string }) {
  const askForServer = useFlowStore((s) => s.askForServer);
  return (
    <p className="small">
      Setting it up means saving an MCP server named <code>{type}</code> in Settings, one that reaches your {label}{' '}
      account. You can install now and set it up later: until then, what needs {label} cannot work.{' '}
      <button type="button" className="button button-small" onClick={() => askForServer(type)}>
        <Settings aria-hidden="true" size={14} /> Save <PackageText text={type} /> in Settings → MCP servers
      </button>
    </p>
  );
}

/** The connections a package needs (`[[requires]]`), each with whether this computer has it and the way to set it up. */
export function ConnectionsSection({
  requires,
  connectionAvailable,
}: {
  requires: readonly RequiresEntry[];
  connectionAvailable: (type: string) => boolean | undefined;
}) {
  if (requires.length === 0) return null;
  return (
    <section aria-labelledby="connections-heading">
      <h3 id="connections-heading">Connections it needs</h3>
      <ul className="rows">
        {requires.map((requirement) => {
          const label = CONNECTION_TYPES.find((c) => c.type === requirement.type)?.label;
          const available = connectionAvailable(requirement.type);
          return (
            <li key={requirement.type} className="row row-block">
              <p>
                <strong>{label ?? requirement.type}</strong>{' '}
                <code className="small muted">
                  <PackageText text={requirement.type} />
                </code>{' '}
                {available === true ? (
                  <span className="badge badge-allow">
                    <CheckCircle2 aria-hidden="true" size={12} /> This computer has it
                  </span>
                ) : available === false ? (
                  <span className="badge badge-warning-soft">
                    <XCircle aria-hidden="true" size={12} /> Not set up on this computer
                  </span>
                ) : label === undefined ? (
                  <span className="badge badge-warning-soft">Unknown connection type</span>
                ) : null}
              </p>
              {requirement.reason ? (
                <p className="small">
                  Why: <PackageText text={requirement.reason} />
                </p>
              ) : null}
              {available === false ? (
                <ConnectionSetup type={requirement.type} label={label ?? requirement.type} />
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The environment variables a server is handed (names only), and a warning when a secret goes to a changing program. */
function ServerEnv({ server, unpinned }: { server: McpServerEntry; unpinned: string | null }) {
  const envKeys = Object.keys(server.env ?? {});
  // A secret-looking name handed to a program that can change after consent: said beside the names.
  const secretNames = unpinned !== null ? secretLookingNames(envKeys) : [];
  return (
    <>
      <p className="small">
        {envKeys.length === 0 ? (
          'It receives no environment variables from the package.'
        ) : (
          <>
            It receives these environment variables (names only):{' '}
            {envKeys.map((key) => (
              <code key={key} className="env-key">
                <PackageText text={key} />
              </code>
            ))}
          </>
        )}
      </p>
      {secretNames.length > 0 ? (
        <p className="small panel-warning" role="note">
          <AlertTriangle aria-hidden="true" size={12} /> {secretNames.join(', ')}{' '}
          {secretNames.length === 1 ? 'looks like a secret' : 'look like secrets'}, and{' '}
          {secretNames.length === 1 ? 'it goes' : 'they go'} to <PackageText text={unpinned ?? ''} />, which is not
          pinned to one version: whoever publishes its next version would receive{' '}
          {secretNames.length === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
    </>
  );
}

/** One MCP server: the program it runs (and whether that can change) or the address it reaches, and what it is handed. */
function McpServerRow({ server }: { server: McpServerEntry }) {
  const commandLine = mcpCommandLine(server);
  const unpinned = commandLine !== '' ? unpinnedLaunch(server) : null;
  return (
    <li className="row row-block">
      <p>
        <strong>
          <PackageText text={server.name} />
        </strong>{' '}
        <FamilyBadge family={commandLine !== '' ? 'execute_code' : 'send_external'} />
      </p>
      {commandLine !== '' ? (
        <p>
          Runs this program on this computer:{' '}
          <code className="command">
            <PackageText text={commandLine} />
          </code>
          {unpinned !== null ? (
            <>
              {' '}
              <span className="badge badge-warning-soft">
                <AlertTriangle aria-hidden="true" size={12} /> Not pinned to one version: the program can change after
                you consent
              </span>
            </>
          ) : null}
        </p>
      ) : (
        <p>
          Connects to{' '}
          <code className="command">
            <PackageText text={server.url ?? '(no address)'} />
          </code>{' '}
          {transportWords(server.transport)}{' '}
          <span className="small muted">
            (<code>{server.transport ?? 'stdio'}</code>)
          </span>
        </p>
      )}
      <ServerEnv server={server} unpinned={unpinned} />
      <p className="small muted">
        This app cannot know beforehand what its tools do, so each call to one of them asks you first.
      </p>
    </li>
  );
}

/** The programs and servers a package brings (`[[mcp_servers]]`). */
export function McpServersSection({ servers }: { servers: readonly McpServerEntry[] }) {
  if (servers.length === 0) return null;
  return (
    <section aria-labelledby="mcp-heading">
      <h3 id="mcp-heading">Programs and servers it brings (MCP)</h3>
      <ul className="rows">
        {servers.map((server) => (
          <McpServerRow key={server.name} server={server} />
        ))}
      </ul>
    </section>
  );
}

/** The Python packages a package installs (`[pip]`), each pinned or not. */
export function PipSection({ pip }: { pip: readonly string[] }) {
  if (pip.length === 0) return null;
  return (
    <section aria-labelledby="pip-heading">
      <h3 id="pip-heading">Python packages it installs</h3>
      <ul className="rows">
        {pip.map((requirement) => (
          <li key={requirement} className="row">
            <code>
              <PackageText text={requirement} />
            </code>{' '}
            {isPinnedRequirement(requirement) ? (
              <span className="badge badge-allow">Pinned to one version</span>
            ) : (
              <span className="badge badge-warning-soft">
                <AlertTriangle aria-hidden="true" size={12} /> Not pinned: any version could be installed
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
