import { ArrowLeft, Plus } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { isHttpUrl } from '../../../../shared/base/http-url';
import { MCP_TRANSPORTS, type McpTransport } from '../../../../shared/manifests/apollia-manifest';
import { ENV_VARIABLE_NAME, isMcpServerName, MAX_MCP_ENV } from '../../../../shared/manifests/mcp-server-name';
import { transportChoiceWords } from '../../../../shared/words/words';
import { useSaveMcpServer, useSettings } from '../../../api/hooks';
import { ErrorPanel } from '../../components/Status';
import { PackageText } from '../../components/PackageText';
import { useFlowStore } from '../../stores/flow-store';

/** Splits an arguments field into a list: one argument per line. */
function splitArgs(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** One environment variable as typed: its name, and its value (never shown once saved). */
interface EnvRow {
  name: string;
  value: string;
}

/** The variables typed, by name (rows without a name left out), or null when a name is not one a shell can set. */
function envOf(rows: EnvRow[]): Record<string, string> | null {
  const named = rows.filter((row) => row.name.trim() !== '');
  if (named.some((row) => !ENV_VARIABLE_NAME.test(row.name.trim()))) return null;
  return Object.fromEntries(named.map((row) => [row.name.trim(), row.value]));
}

/**
 * A stdio server's environment variables (its tokens, most often), one name and value a row; values typed as a
 * password is. Saved sealed whole, as every credential of Settings: never shown again, not even the names.
 */
function EnvFields({ rows, onChange }: { rows: EnvRow[]; onChange: (rows: EnvRow[]) => void }) {
  const set = (i: number, row: EnvRow) => onChange(rows.map((old, j) => (j === i ? row : old)));
  return (
    <fieldset className="field env-fields">
      <legend>Environment variables (optional)</legend>
      <p className="hint" id="mcp-env-hint">
        What the program reads from its environment, such as its API token. Kept encrypted with the rest of its
        credentials, and never shown again.
      </p>
      {rows.map((row, i) => {
        const bad = row.name.trim() !== '' && !ENV_VARIABLE_NAME.test(row.name.trim());
        return (
          <div key={i} className="env-row">
            <label htmlFor={`mcp-env-name-${i}`}>Name {i + 1}</label>
            <input
              id={`mcp-env-name-${i}`}
              value={row.name}
              onChange={(e) => set(i, { ...row, name: e.target.value })}
              aria-invalid={bad}
              aria-describedby={bad ? `mcp-env-error-${i}` : 'mcp-env-hint'}
              autoComplete="off"
              spellCheck={false}
            />
            <label htmlFor={`mcp-env-value-${i}`}>Value {i + 1}</label>
            <input
              id={`mcp-env-value-${i}`}
              type="password"
              value={row.value}
              onChange={(e) => set(i, { ...row, value: e.target.value })}
              autoComplete="off"
            />
            {bad ? (
              <p id={`mcp-env-error-${i}`} className="hint text-error">
                A name is letters, digits and _ (not starting with a digit), like LINEAR_API_KEY.
              </p>
            ) : null}
          </div>
        );
      })}
      {rows.length < MAX_MCP_ENV ? (
        <button
          type="button"
          className="button button-small"
          onClick={() => onChange([...rows, { name: '', value: '' }])}
        >
          <Plus aria-hidden="true" size={14} /> Add another variable
        </button>
      ) : null}
    </fieldset>
  );
}

/** The name of the tab that asked for a server, as its tab reads. */
function useAskingTab(): { sourceId: string; name: string } | null {
  const request = useFlowStore((s) => s.serverRequest);
  const sources = useFlowStore((s) => s.sources);
  const source = request?.sourceId ? sources.find((s) => s.id === request.sourceId) : undefined;
  return source ? { sourceId: source.id, name: source.displayName } : null;
}

/**
 * A way back to the tab that asked for a missing server: what it needs, whether it is saved now, and a button back to
 * the form it came from (which kept its answers).
 */
export function ServerRequestNote() {
  const request = useFlowStore((s) => s.serverRequest);
  const showSource = useFlowStore((s) => s.showSource);
  const tab = useAskingTab();
  const settings = useSettings();
  if (!request) return null;
  const saved = settings.data?.mcpServers.some((server) => server.name === request.server) ?? false;
  return (
    <section
      className={saved ? 'panel' : 'panel panel-warning'}
      aria-labelledby="server-request-heading"
      aria-live="polite"
    >
      <h3 id="server-request-heading">
        {saved
          ? `${request.server} is saved`
          : `${tab ? tab.name : 'A template'} needs the MCP server ${request.server}`}
      </h3>
      <p>
        {saved
          ? 'Go back to finish: the form kept your answers, and it now finds the server.'
          : 'Its name is filled in below. Give the program that serves it (or its address), with the variables it needs, then go back: the form kept your answers.'}
      </p>
      {tab ? (
        <button
          type="button"
          className={saved ? 'button button-primary' : 'button'}
          onClick={() => showSource(tab.sourceId)}
        >
          <ArrowLeft aria-hidden="true" size={16} /> Back to <PackageText text={tab.name} />
        </button>
      ) : null}
    </section>
  );
}

/**
 * Save an MCP server: a command line (stdio) or an http(s) address. Asked for by a template (a missing server), its
 * name is filled in and the next empty field focused.
 */
export function McpServerForm() {
  const request = useFlowStore((s) => s.serverRequest);
  // A new request starts a new form: the name it asks for, nothing else from an earlier draft.
  return <McpServerFields key={request?.server ?? ''} askedFor={request?.server ?? null} />;
}

function McpServerFields({ askedFor }: { askedFor: string | null }) {
  const save = useSaveMcpServer();
  const [name, setName] = useState(askedFor ?? '');
  const [transport, setTransport] = useState<McpTransport>('stdio');
  const [command, setCommand] = useState('');
  const [args, setArgs] = useState('');
  const [url, setUrl] = useState('');
  const [envRows, setEnvRows] = useState<EnvRow[]>([{ name: '', value: '' }]);
  const commandRef = useRef<HTMLInputElement>(null);
  const nameOk = isMcpServerName(name);
  const urlOk = isHttpUrl(url);
  const env = envOf(envRows);
  const ready = nameOk && (transport === 'stdio' ? command.trim() !== '' && env !== null : urlOk);
  // Asked for by a template: the name is given, so the person starts at what only they know.
  useEffect(() => {
    if (askedFor === null) return;
    commandRef.current?.scrollIntoView({ block: 'center' });
    commandRef.current?.focus();
  }, [askedFor]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    const server =
      transport === 'stdio'
        ? {
            name,
            transport,
            command: command.trim(),
            args: splitArgs(args),
            ...(env && Object.keys(env).length > 0 ? { env } : {}),
          }
        : { name, transport, url: url.trim() };
    save.mutate(server, {
      onSuccess: () => {
        setName('');
        setCommand('');
        setArgs('');
        setUrl('');
        setEnvRows([{ name: '', value: '' }]);
      },
    });
  };
  return (
    <form onSubmit={submit} className="form" aria-labelledby="mcp-form-heading">
      <h3 id="mcp-form-heading">Save an MCP server</h3>
      <div className="field">
        <label htmlFor="mcp-name">Server name</label>
        <input
          id="mcp-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={name !== '' && !nameOk}
          aria-describedby="mcp-name-hint"
          autoComplete="off"
        />
        <p id="mcp-name-hint" className={`hint${name !== '' && !nameOk ? ' text-error' : ''}`}>
          {askedFor !== null && name === askedFor
            ? 'The name the template uses: keep it, so the template finds the server.'
            : 'Lowercase letters, digits, - and _ (templates name servers this way, for example github).'}
        </p>
      </div>
      <div className="field">
        <label htmlFor="mcp-transport">What kind of server</label>
        <select id="mcp-transport" value={transport} onChange={(e) => setTransport(e.target.value as McpTransport)}>
          {MCP_TRANSPORTS.map((t) => (
            <option key={t} value={t}>
              {transportChoiceWords(t)}
            </option>
          ))}
        </select>
      </div>
      {transport === 'stdio' ? (
        <>
          <div className="field">
            <label htmlFor="mcp-command">Command</label>
            <input
              id="mcp-command"
              ref={commandRef}
              value={command}
              onChange={(e) => setCommand(e.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor="mcp-args">Arguments (one per line)</label>
            <textarea id="mcp-args" value={args} onChange={(e) => setArgs(e.target.value)} rows={3} />
          </div>
          <EnvFields rows={envRows} onChange={setEnvRows} />
        </>
      ) : (
        <div className="field">
          <label htmlFor="mcp-url">URL</label>
          <input
            id="mcp-url"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            aria-invalid={url !== '' && !urlOk}
            aria-describedby="mcp-url-hint"
            autoComplete="off"
          />
          <p id="mcp-url-hint" className={`hint${url !== '' && !urlOk ? ' text-error' : ''}`}>
            An http or https address.
          </p>
        </div>
      )}
      <button type="submit" className="button button-primary" disabled={!ready || save.isPending}>
        Save server
      </button>
      <p role="status" aria-live="polite" className="small">
        {save.isSuccess ? 'Server saved.' : ''}
      </p>
      {save.isError ? <ErrorPanel error={save.error} title="The server was not saved" /> : null}
    </form>
  );
}
