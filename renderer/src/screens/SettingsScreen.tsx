import { transportWords } from '../../../shared/words/words';
import { Ban, KeyRound, Lock, Server, Trash2 } from 'lucide-react';
import { PolicyBanner } from '../components/PolicyBanner';
import { useState, type FormEvent } from 'react';
import type { KnownTool, SecretBackend } from '../../../shared/contract/api';
import {
  useDenyTool,
  useRemoveDeniedTool,
  useRemoveMcpServer,
  useRemoveSecret,
  useSaveSecret,
  useSettings,
  useTriggerStatus,
} from '../../api/hooks';
import { KEYCHAIN_WEBHOOKS_DARK_WORDS, otherHost } from './dashboard/other-host';
import { ErrorPanel, Loading } from '../components/Status';
import { PackageText } from '../components/PackageText';
import { StartAtLoginSection } from './settings/StartAtLoginSection';
import { WebhookPortSection } from './settings/WebhookPortSection';
import { ActivityCollectorSection } from './settings/ActivityCollectorSection';
import { TrustedPublishersSection } from '../components/trust/TrustedPublishers';
import { McpServerForm, ServerRequestNote } from './settings/McpServerForm';
import { FeedsSection } from './settings/FeedsSection';

const BACKEND_WORDS: Record<SecretBackend, string> = {
  keychain: "Secrets are kept encrypted with this computer's keychain.",
  file_key:
    'Secrets are kept encrypted with a key stored in a file beside the app data (secret-box.key), not in a keychain: anyone who can read the app data folder can read them.',
  basic_text:
    'This computer has no keychain Apollia can use: secrets are kept only obscured, with a key built into the app, in the app data folder. Anyone who can read your files could read them.',
  unavailable: 'Secrets cannot be kept on this computer: saving a secret will fail.',
  pending:
    'Waiting for this computer’s keychain (it may be asking you to unlock it): saving a secret waits until it answers.',
};

/** While `serve` holds the triggers, what it means for webhook secrets this app keeps (other-host.ts). */
function ServeSecretsNote({ backend }: { backend: SecretBackend }) {
  const other = otherHost(useTriggerStatus().data, backend);
  if (!other) return null;
  return (
    <p className={other.keychainWebhooksDark ? 'panel panel-warning' : 'muted'}>
      The triggers run in the command line’s <code>serve</code> (process <span data-volatile>{other.pid}</span>), which
      opens secrets with the key file beside the app data.{' '}
      {other.keychainWebhooksDark ? KEYCHAIN_WEBHOOKS_DARK_WORDS : 'Webhook secrets saved here are opened there too.'}
    </p>
  );
}

function SecretRow({ name, label, saved }: { name: string; label: string; saved: boolean }) {
  const save = useSaveSecret();
  const remove = useRemoveSecret();
  const [value, setValue] = useState('');
  const id = `secret-${name}`;
  return (
    <li className="row row-block">
      <form
        className="secret-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (value === '') return;
          save.mutate({ name, value }, { onSuccess: () => setValue('') });
        }}
      >
        <label htmlFor={id}>
          {label}{' '}
          <code>
            <PackageText text={name} />
          </code>{' '}
          {saved ? (
            <span className="badge badge-allow">Saved</span>
          ) : (
            <span className="badge badge-neutral">Not saved</span>
          )}
        </label>
        <input
          id={id}
          type="password"
          value={value}
          autoComplete="off"
          onChange={(e) => setValue(e.target.value)}
          placeholder={saved ? 'Type a new value to replace it' : 'Paste the value'}
        />
        <button
          type="submit"
          className="button button-small"
          disabled={value === '' || save.isPending}
          aria-label={`Save ${name}`}
        >
          Save
        </button>
        {saved ? (
          <button
            type="button"
            className="button button-small button-danger-soft"
            disabled={remove.isPending}
            aria-label={`Remove ${name}`}
            onClick={() => remove.mutate({ name })}
          >
            <Trash2 aria-hidden="true" size={14} /> Remove
          </button>
        ) : null}
      </form>
      {save.isError ? <ErrorPanel error={save.error} title={`${name} was not saved`} /> : null}
      {remove.isError ? <ErrorPanel error={remove.error} title={`${name} was not removed`} /> : null}
    </li>
  );
}

/**
 * The form that adds a tool to the owner's "never allow" list, picked from the tools the app knows
 * (picked, not typed): built-in tools by what they do, then MCP tools by name.
 */
function DeniedToolForm({ knownTools }: { knownTools: KnownTool[] }) {
  const deny = useDenyTool();
  const [tool, setTool] = useState('');
  const native = knownTools.filter((t) => t.kind === 'native');
  const mcp = knownTools.filter((t) => t.kind === 'mcp');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tool === '') return;
    deny.mutate({ tool }, { onSuccess: () => setTool('') });
  };
  return (
    <form onSubmit={submit} className="form" aria-labelledby="denied-tool-form-heading">
      <h3 id="denied-tool-form-heading">Never allow a tool</h3>
      <div className="field">
        <label htmlFor="denied-tool">Tool</label>
        <select
          id="denied-tool"
          value={tool}
          onChange={(e) => setTool(e.target.value)}
          aria-describedby="denied-tool-hint"
        >
          <option value="">Choose a tool…</option>
          {native.length > 0 ? (
            <optgroup label="Built-in tools">
              {native.map((t) => (
                <option key={t.tool} value={t.tool}>
                  {t.description} ({t.tool})
                </option>
              ))}
            </optgroup>
          ) : null}
          {mcp.length > 0 ? (
            <optgroup label="MCP tools">
              {mcp.map((t) => (
                <option key={t.tool} value={t.tool}>
                  {t.tool.slice('mcp:'.length)} ({t.description})
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
        <p id="denied-tool-hint" className="hint">
          The tools this app knows: its built-in tools, and the MCP tools named by the built-in templates and by your
          agents. No agent gets a tool on this list, from a template or a package.
        </p>
      </div>
      <button type="submit" className="button button-primary" disabled={tool === '' || deny.isPending}>
        Never allow it
      </button>
      <p role="status" aria-live="polite" className="small">
        {deny.isSuccess ? 'Added to the tools you never allow.' : ''}
      </p>
      {deny.isError ? <ErrorPanel error={deny.error} title="The tool was not added" /> : null}
    </form>
  );
}

/**
 * Settings → Tools you never allow: the owner's own denials, which every apply keeps (template spec "Apply" step 2).
 */
function DeniedToolsSection({ deniedTools, knownTools }: { deniedTools: string[]; knownTools: KnownTool[] }) {
  const remove = useRemoveDeniedTool();
  return (
    <section aria-labelledby="denied-tools-heading">
      <h2 id="denied-tools-heading">
        <Ban aria-hidden="true" size={20} /> Tools you never allow
      </h2>
      <p className="muted">
        No template you apply and no package you install gets these tools: they show as “Denied in your Settings” and
        stay denied. Agents made before you added a tool keep the settings they were given.
      </p>
      {deniedTools.length === 0 ? <p className="muted">You have not listed any tool.</p> : null}
      <ul className="rows" aria-label="Tools you never allow">
        {deniedTools.map((tool) => (
          <li key={tool} className="row">
            <code>
              <PackageText text={tool} />
            </code>{' '}
            <span className="badge badge-deny">Never allowed</span>
            <button
              type="button"
              className="button button-small button-danger-soft"
              disabled={remove.isPending}
              aria-label={`Remove ${tool} from the tools you never allow`}
              onClick={() => remove.mutate({ tool })}
            >
              <Trash2 aria-hidden="true" size={14} /> Remove
            </button>
          </li>
        ))}
      </ul>
      {remove.isError ? <ErrorPanel error={remove.error} title="The tool was not removed" /> : null}
      <DeniedToolForm knownTools={knownTools} />
    </section>
  );
}

/** Settings: MCP servers, secrets and the tools you never allow, kept on this computer for agents. */
export function SettingsScreen() {
  const settings = useSettings();
  const removeServer = useRemoveMcpServer();
  return (
    <div className="screen">
      <h1>Settings</h1>
      {settings.isPending ? <Loading label="Loading settings…" /> : null}
      {settings.isError ? <ErrorPanel error={settings.error} title="Settings could not be loaded" /> : null}
      {settings.data ? (
        <>
          <PolicyBanner view={settings.data.policy} />
          <section aria-labelledby="mcp-servers-heading">
            <h2 id="mcp-servers-heading">
              <Server aria-hidden="true" size={20} /> MCP servers
            </h2>
            <p className="muted">Templates use MCP servers by the name you save them under here.</p>
            {settings.data.mcpServers.length === 0 ? <p className="muted">No MCP server is saved.</p> : null}
            <ul className="rows">
              {settings.data.mcpServers.map((server) => (
                <li key={server.name} className="row">
                  <strong>{server.name}</strong>{' '}
                  {server.transport === 'stdio' ? (
                    <>
                      runs <code className="command">{[server.command ?? '', ...(server.args ?? [])].join(' ')}</code>
                    </>
                  ) : (
                    <>
                      <code className="command">{server.url ?? ''}</code> {transportWords(server.transport)}{' '}
                      <span className="small muted">
                        (<code>{server.transport}</code>)
                      </span>
                    </>
                  )}
                  {server.credentialsSealed ? (
                    <span className="muted">
                      {[server.command ?? '', ...(server.args ?? []), server.url ?? ''].some((part) =>
                        part.includes('••••'),
                      )
                        ? 'The credential in it (shown as ••••) is kept encrypted and never shown again.'
                        : 'Its environment variables are kept encrypted and never shown again.'}
                    </span>
                  ) : null}
                  {server.managed ? (
                    <span className="badge">
                      <Lock aria-hidden="true" size={12} /> Provided by your organization
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="button button-small button-danger-soft"
                      disabled={removeServer.isPending}
                      aria-label={`Remove server ${server.name}`}
                      onClick={() => removeServer.mutate({ name: server.name })}
                    >
                      <Trash2 aria-hidden="true" size={14} /> Remove
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {removeServer.isError ? <ErrorPanel error={removeServer.error} title="The server was not removed" /> : null}
            <ServerRequestNote />
            <McpServerForm />
          </section>
          <section aria-labelledby="secrets-heading">
            <h2 id="secrets-heading">
              <KeyRound aria-hidden="true" size={20} /> Secrets
            </h2>
            <p
              className={settings.data.secretBackend === 'keychain' ? '' : 'panel panel-warning'}
              role={settings.data.secretBackend === 'pending' ? 'status' : undefined}
            >
              {BACKEND_WORDS[settings.data.secretBackend]}
            </p>
            <ServeSecretsNote backend={settings.data.secretBackend} />
            <p className="muted">A saved value is never shown again: type a new one to replace it.</p>
            <ul className="rows">
              {settings.data.secrets.map((secret) => (
                <SecretRow key={secret.name} name={secret.name} label={secret.label} saved={secret.saved} />
              ))}
            </ul>
          </section>
          <DeniedToolsSection deniedTools={settings.data.deniedTools} knownTools={settings.data.knownTools} />
          <WebhookPortSection webhookPort={settings.data.webhookPort} />
          <ActivityCollectorSection />
          <StartAtLoginSection />
          <TrustedPublishersSection />
          <FeedsSection />
        </>
      ) : null}
    </div>
  );
}
