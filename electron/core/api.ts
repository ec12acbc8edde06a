/**
 * The Api of `shared/api.ts`, implemented over core with injected deps (DESIGN.md "Layout";
 * STYLE.md "the boundary tested without Electron"). Electron main binds it to IPC, the e2e harness
 * serves it over HTTP, tests call it directly.
 *
 * Every method takes one `unknown` request, checks it against `API_REQUEST_SCHEMAS` (a wrong type,
 * a missing or extra field, an oversized string → `request.invalid`), and answers an `ApiResult`:
 * expected refusals are values with stable codes; a throw is a bug, logged and answered `internal`.
 * The renderer never sends a path: sources and watched folders are opened by main and referred to
 * by unguessable ids (`crypto.randomUUID`).
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import semver from 'semver';
import packageJson from '../../package.json';
import {
  API_METHODS,
  API_REQUEST_SCHEMAS,
  type AccessView,
  type AgentView,
  type ApiError,
  type ApiMethod,
  type ApiRequest,
  type ApiResponse,
  type ApiResult,
  type ApplyReceipt,
  type Dashboard,
  type InstallReceipt,
  type InstalledPackageView,
  type SettingsView,
  type SourceHandle,
  type SourceInspection,
  type TriggerView,
  type WebhookSecretOnce,
} from '../../shared/api';
import { type ApolliaManifest, type TriggerEntry } from '../../shared/apollia-manifest';
import { previewApply, type ApplyMachine, type ApplyPreview } from '../../shared/apply-preview';
import { CONNECTION_TYPES, SECRET_NAMES, templateTool } from '../../shared/catalogues';
import { deniedToolProblem, MAX_DENIED_TOOLS } from '../../shared/owner-tools';
import { accessFamily, grantedPermission, offeredAccess, type ConsentDecision } from '../../shared/consent';
import { describeCron, describeInterval, nextCronTimes, nextIntervalTimes } from '../../shared/cron';
import type { ApoDetails, ApoInspection, Inspection } from '../../shared/inspection';
import { SDK_VERSION } from '../../shared/sdk';
import type { TemplateDetails } from '../../shared/template-manifest';
import { diffUpdate } from '../../shared/update-diff';
import { inspectApo } from './apollia';
import { extractVerifiedArchive, sniffInputKind } from './archive';
import { inspectPluginManifest } from './plugin';
import type { SecretBox } from './secret-box';
import type { AtomicWriteFaults } from './store/atomic-file';
import { StoreBusyError } from './store/lock';
import type { AgentRecord, PackageAgentRecord, PackageRecord, StoreState, TemplateAgentRecord, ToolSettingRecord, TriggerRecord } from './store/state';
import { Store, StoreError } from './store/store';
import * as templateModule from './template';

/** What the Api needs from its host (Electron main, the e2e harness, the CLI, a test). */
export interface ApiDeps {
  /** The app's data folder (`app.getPath('userData')`); the store lives here. */
  dataDir: string;
  /** The app's resources (`resources/`): built-in templates live in `templates/`. */
  resourcesDir: string;
  dialogs: { openFile(): Promise<string | null>; openFolder(): Promise<string | null> };
  secretBox: SecretBox;
  now: () => Date;
  log?: (message: string, error?: unknown) => void;
  /** Test hooks: faults injected into the state writer and into apply's trigger step. */
  faults?: AtomicWriteFaults & { applyTrigger?: (name: string) => void };
  /** How long a write waits for another process's lock before `store.busy`. */
  lockTimeoutMs?: number;
}

/** An opened input, known only to the main process. */
interface Source {
  handle: SourceHandle;
  path: string;
  /**
   * For a template: the digest of the bytes last shown to the user (by `inspect` or `previewApply`).
   * Apply re-reads the folder and makes nothing unless it still holds exactly these bytes.
   */
  shownDigest?: string;
  /**
   * For an `.apo`: the last `inspect`'s answer, what the consent form showed. Install extracts only
   * bytes with its SHA-256 (DESIGN.md "Install extracts only from what inspection verified"), so the
   * archive is not checked a second time before extraction, and a file swapped since is refused.
   */
  shownApo?: ApoInspection;
}

/** The Api implementation: every method of the contract, plus `registerSource` for main's own paths. */
export type CoreApiImplementation = {
  [M in ApiMethod]: (request?: unknown) => Promise<ApiResult<ApiResponse<M>>>;
} & {
  registerSource(path: string, origin: SourceHandle['origin']): Promise<ApiResult<SourceHandle>>;
  /** The store, for the CLI's read-only listing and for tests. */
  readonly store: Store;
};

/** An expected refusal: thrown inside a handler, answered as an error value. */
class Refusal extends StoreError {
  constructor(
    code: string,
    message: string,
    readonly extra: Partial<ApiError> = {},
  ) {
    super(code, message);
  }
}

const ajv = new Ajv2020({ allErrors: false, strict: false });
const validators = Object.fromEntries(API_METHODS.map((method) => [method, ajv.compile(API_REQUEST_SCHEMAS[method])])) as Record<ApiMethod, ReturnType<typeof ajv.compile>>;

/** Checks a request against its method's schema; a sentence naming the field, or null. */
function requestProblem(method: ApiMethod, request: unknown): ApiError | null {
  const validate = validators[method];
  if (validate(request === undefined ? null : request)) return null;
  const error = validate.errors?.[0];
  const where = error?.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : 'request';
  const extra = error?.keyword === 'additionalProperties' ? ` (\`${String((error.params as { additionalProperty?: string }).additionalProperty)}\`)` : '';
  return { code: 'request.invalid', message: `${method}: \`${where}\` ${error?.message ?? 'is invalid'}${extra}`, path: where };
}

/**
 * `record[key]` only when it is the record's own: ids and names come from the renderer (and from
 * manifests), and `constructor` or `__proto__` must find nothing, never an inherited property.
 */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

const agentIdOf = (pkg: string, agent: string) => `${pkg}/${agent}`;
const triggerIdOf = (owner: string, name: string) => `${owner}/${name}`;
const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A fresh webhook signing secret: 32 random bytes, in the Standard Webhooks `whsec_` form. */
function makeWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Removes `dir` and then each now-empty parent up to (not including) `stop`. */
async function removeAndPrune(dir: string, stop: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  let current = dirname(dir);
  while (current.startsWith(stop) && current !== stop) {
    try {
      await rmdir(current);
    } catch {
      return;
    }
    current = dirname(current);
  }
}

/** SHA-256 over a template's files (sorted paths, lengths and bytes): equal digests, the same folder content. */
function templateDigest(files: ReadonlyMap<string, Uint8Array>): string {
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort()) {
    const bytes = files.get(path) as Uint8Array;
    hash.update(`${path}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** The base name of a `/`-separated package path. */
const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Builds the Api over `deps`. */
export function createApi(deps: ApiDeps): CoreApiImplementation {
  const store = new Store(deps.dataDir, { now: deps.now, faults: deps.faults, lockTimeoutMs: deps.lockTimeoutMs });
  const sources = new Map<string, Source>();
  const folders = new Map<string, string>();
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));

  /**
   * What a path looks like, by content (the archive module's sniff, as `inspectPath` uses it). A
   * file that is neither an archive nor JSON (or not a regular file) is handed to the `.apo` reader,
   * whose refusal names what it is.
   */
  async function sniffKind(path: string): Promise<SourceHandle['kind']> {
    const kind = await sniffInputKind(path);
    return kind === 'directory' ? 'template' : kind === 'json' ? 'plugin' : 'apo';
  }

  async function registerSource(path: string, origin: SourceHandle['origin']): Promise<ApiResult<SourceHandle>> {
    try {
      if (typeof path !== 'string' || !isAbsolute(path)) return { ok: false, error: { code: 'source.not_found', message: 'Only an absolute path to a file or folder on this computer can be opened.' } };
      if (!(await exists(path))) return { ok: false, error: { code: 'source.not_found', message: `${basename(path)} does not exist (any more).` } };
      const handle: SourceHandle = { id: randomUUID(), kind: await sniffKind(path), displayName: basename(path), origin };
      sources.set(handle.id, { handle, path });
      return { ok: true, value: handle };
    } catch (error) {
      return { ok: false, error: { code: 'source.unreadable', message: `${basename(path)} could not be read: ${error instanceof Error ? error.message : String(error)}` } };
    }
  }

  function source(id: string): Source {
    const found = sources.get(id);
    if (!found) throw new Refusal('source.unknown', 'That file or folder is not open any more: open it again.');
    return found;
  }

  function folder(id: string): string {
    const found = folders.get(id);
    if (!found) throw new Refusal('folder.unknown', 'That folder was not picked in this session: pick it again.');
    return found;
  }

  async function inspectSource(src: Source): Promise<Inspection> {
    if (src.handle.kind === 'apo') {
      const inspection = (await inspectApo(src.path)) as ApoInspection;
      src.shownApo = inspection;
      return inspection;
    }
    if (src.handle.kind === 'template') {
      const read = await templateModule.readTemplateFolder(src.path);
      if (read.inspection.ok) src.shownDigest = templateDigest(read.files);
      return read.inspection;
    }
    return inspectPluginManifest(src.path);
  }

  /** The user's recorded decisions for an installed package, in the consent form's shape. */
  function recordedDecisions(state: StoreState, name: string): ConsentDecision {
    const decisions: ConsentDecision = { agents: {}, triggers: {} };
    for (const agent of Object.values(state.agents)) {
      if (agent.origin === 'package' && agent.packageName === name) {
        decisions.agents[agent.agentId] = { access: Object.fromEntries(agent.access.map((a) => [a.entry, a.granted])) };
      }
    }
    for (const trigger of Object.values(state.triggers)) if (trigger.packageName === name) decisions.triggers[trigger.name] = { armed: trigger.armed };
    return decisions;
  }

  function relationOf(installed: string, candidate: string): 'same' | 'newer' | 'older' {
    const order = semver.compare(candidate, installed);
    return order === 0 ? 'same' : order > 0 ? 'newer' : 'older';
  }

  // ---- views -------------------------------------------------------------------------------

  function triggerView(trigger: TriggerRecord): TriggerView {
    const now = deps.now();
    let words = '';
    let next: string[] = [];
    if (trigger.type === 'cron' || trigger.type === 'schedule') {
      const options = { dayRule: trigger.dayRule, timezone: trigger.timezone ?? 'UTC' };
      words = describeCron(trigger.schedule ?? '', options);
      if (trigger.armed) next = nextCronTimes(trigger.schedule ?? '', options, now, 3).map((d) => d.toISOString());
    } else if (trigger.type === 'interval') {
      words = describeInterval(trigger.every ?? '');
      if (trigger.armed) next = nextIntervalTimes(trigger.every ?? '', now, 3, trigger.armedAt ? new Date(trigger.armedAt) : undefined).map((d) => d.toISOString());
    } else if (trigger.type === 'file_watch') {
      words = `When ${trigger.folder ?? 'a folder you pick'} changes${trigger.recursive ? ' (subfolders too)' : ''}`;
    } else if (trigger.type === 'webhook') {
      words = `On a signed HTTP call${trigger.events ? ` (${trigger.events.join(', ')})` : ''}`;
    } else {
      words = `Once, at ${trigger.at ?? ''}`;
      if (trigger.armed && trigger.at && Date.parse(trigger.at) > now.getTime()) next = [new Date(Date.parse(trigger.at)).toISOString()];
    }
    return {
      id: trigger.id,
      name: trigger.name,
      type: trigger.type,
      agentId: trigger.agentId,
      target: trigger.target,
      words,
      next,
      armed: trigger.armed,
      folder: trigger.folder,
      webhookSecretSet: trigger.secretRef !== null,
    };
  }

  function agentView(state: StoreState, agent: AgentRecord): AgentView {
    const triggers = Object.values(state.triggers).filter((t) => t.agentId === agent.id).map(triggerView);
    if (agent.origin === 'package') {
      const pkg = own(state.packages, agent.packageName);
      const access: AccessView[] = agent.access.map((a) => ({
        tool: a.entry,
        family: a.family,
        permission: grantedPermission(a.family, a.granted),
        granted: a.granted,
        pin: null,
      }));
      return {
        id: agent.id, origin: 'package', from: agent.packageName, fromVersion: pkg?.version ?? '', displayName: agent.displayName,
        description: agent.description, archived: agent.archived, createdAt: agent.createdAt, access, triggers, model: agent.model, budgetPerRunUsd: null,
      };
    }
    // Template spec, agent.md `approvals`: under `ask` the agent asks its person before any tool runs,
    // granted or not; only under `never` does a granted (allowed) tool run unasked. Deny holds either way.
    const access: AccessView[] = Object.entries(agent.toolSettings).map(([tool, setting]) => ({
      tool,
      family: setting.family,
      permission: setting.setting === 'allow' && agent.approvals !== 'never' ? 'ask' : setting.setting,
      granted: setting.setting === 'allow',
      pin: setting.pin,
    }));
    return {
      id: agent.id, origin: 'template', from: agent.templateName, fromVersion: agent.templateVersion, displayName: agent.displayName,
      description: agent.description, archived: agent.archived, createdAt: agent.createdAt, access, triggers,
      model: agent.model ? (agent.model.prefer ?? agent.model.tier) : null, budgetPerRunUsd: agent.budgetPerRunUsd,
    };
  }

  function dashboardOf(state: StoreState): Dashboard {
    const packages: InstalledPackageView[] = Object.values(state.packages)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((pkg) => ({
        name: pkg.name, version: pkg.version, publisher: pkg.publisher, description: pkg.description, installedAt: pkg.installedAt, updatedAt: pkg.updatedAt,
        agents: Object.values(state.agents).filter((a) => a.origin === 'package' && a.packageName === pkg.name).map((a) => a.id),
        triggers: Object.values(state.triggers).filter((t) => t.packageName === pkg.name && t.agentId === null).map(triggerView),
      }));
    const agents = Object.values(state.agents)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((agent) => agentView(state, agent));
    return { packages, agents, damage: state.damage };
  }

  function settingsOf(state: StoreState): SettingsView {
    const servers = Object.values(state.settings.mcpServers).sort((a, b) => a.name.localeCompare(b.name));
    return {
      secretBackend: deps.secretBox.backend(),
      mcpServers: servers,
      secrets: SECRET_NAMES.map((s) => ({ name: s.name, label: s.label, saved: Object.hasOwn(state.settings.secrets, s.name) })),
      connections: CONNECTION_TYPES.map((c) => ({ type: c.type, label: c.label, available: Object.hasOwn(state.settings.mcpServers, c.type) })),
      deniedTools: [...state.settings.deniedTools],
    };
  }

  async function seal(secret: string): Promise<string> {
    // The store must be usable before anything is sealed: a file-key box makes its key on first use,
    // and a refused write (a state file from a newer app, say) must leave the data folder as it was.
    await store.read();
    if (deps.secretBox.backend() === 'unavailable') throw new Refusal('secret.unavailable', 'This computer has no way to keep secrets (no keychain): a webhook or a saved secret cannot be set up here.');
    return toBase64(await deps.secretBox.encrypt(secret));
  }

  // ---- install -----------------------------------------------------------------------------

  function triggerRecord(pkg: string, manifest: ApolliaManifest, entry: TriggerEntry): TriggerRecord {
    const targetsAgent = (manifest.agents ?? []).some((a) => a.id === entry.target);
    const s = entry.source;
    return {
      id: triggerIdOf(pkg, entry.id), name: entry.id, packageName: pkg, agentId: targetsAgent ? agentIdOf(pkg, entry.target) : null,
      target: entry.target, input: entry.input ?? null, type: s.type,
      schedule: s.type === 'cron' ? s.schedule : null, every: s.type === 'interval' ? s.every : null, timezone: null, at: null,
      recursive: s.type === 'file_watch' ? (s.recursive ?? false) : null, events: null, maxConcurrent: null,
      dayRule: 'and', armed: false, armedAt: null, folder: null, secretRef: null,
    };
  }

  async function install(request: ApiRequest<'install'>): Promise<InstallReceipt> {
    const src = source(request.sourceId);
    if (src.handle.kind !== 'apo') throw new Refusal('install.not_a_package', `${src.handle.displayName} is not an .apo package: only packages are installed (a template is applied).`);
    const inspection = src.shownApo;
    if (!inspection) throw new Refusal('install.not_inspected', `${src.handle.displayName} was not inspected: look at what it asks before installing it`);
    const details = inspection.details as ApoDetails | null;
    if (!inspection.ok || !details || !inspection.summary) {
      const first = inspection.errors[0];
      throw new Refusal('install.refused', `${src.handle.displayName} was refused: ${first?.message ?? 'it could not be read'}`, { problems: inspection.errors });
    }
    const manifest = details.manifest;
    const { name, version } = manifest.package;
    const sha256 = inspection.summary.sha256;

    // The answers must be about this package: its agents, the access entries each is offered, its triggers.
    for (const [agentId, consent] of Object.entries(request.decisions.agents)) {
      if (!(manifest.agents ?? []).some((a) => a.id === agentId)) throw new Refusal('install.unknown_agent', `${name} has no agent \`${agentId}\``, { path: `decisions.agents.${agentId}` });
      const offered = offeredAccess(manifest, agentId);
      for (const entry of Object.keys(consent.access)) {
        if (!offered.includes(entry)) throw new Refusal('install.unknown_access', `agent \`${agentId}\` of ${name} is not offered \`${entry}\`: only its defaults.access can be granted`, { path: `decisions.agents.${agentId}.access` });
      }
    }
    const armedFolders = new Map<string, string>();
    for (const [triggerId, arming] of Object.entries(request.decisions.triggers)) {
      const entry = (manifest.triggers ?? []).find((t) => t.id === triggerId);
      if (!entry) throw new Refusal('install.unknown_trigger', `${name} has no trigger \`${triggerId}\``, { path: `decisions.triggers.${triggerId}` });
      if (arming.folderId !== undefined && entry.source.type !== 'file_watch') throw new Refusal('trigger.folder_not_needed', `trigger \`${triggerId}\` is not a file_watch trigger: it watches no folder`, { path: `decisions.triggers.${triggerId}.folderId` });
      if (arming.armed && entry.source.type === 'file_watch') {
        if (arming.folderId === undefined) throw new Refusal('trigger.needs_folder', `trigger \`${triggerId}\` watches a folder: pick one to arm it`, { path: `decisions.triggers.${triggerId}` });
        armedFolders.set(triggerId, folder(arming.folderId));
      }
    }

    const before = await store.read();
    const existing = own(before.packages, name);
    const relation = existing ? relationOf(existing.version, version) : null;
    if (relation === 'same') throw new Refusal('install.already_installed', `${name} ${version} is already installed`);
    if (relation === 'older' && request.allowDowngrade !== true) {
      throw new Refusal('install.downgrade', `${name} ${existing?.version} is installed; installing the older ${version} needs your confirmation (allowDowngrade)`);
    }

    // Webhook secrets for triggers armed now; made before anything is written, sealed, shown once.
    const webhookSecrets: WebhookSecretOnce[] = [];
    const sealed = new Map<string, string>();
    for (const [triggerId, arming] of Object.entries(request.decisions.triggers)) {
      const entry = (manifest.triggers ?? []).find((t) => t.id === triggerId);
      if (arming.armed && entry?.source.type === 'webhook') {
        const secret = makeWebhookSecret();
        sealed.set(triggerId, await seal(secret));
        webhookSecrets.push({ triggerId: triggerIdOf(name, triggerId), secret });
      }
    }

    const stagingRoot = join(deps.dataDir, 'staging');
    const staging = join(stagingRoot, randomUUID());
    const finalRel = `packages/${name}/${version}`;
    const finalDir = join(deps.dataDir, 'packages', name, version);
    let placed = false;
    try {
      await mkdir(stagingRoot, { recursive: true });
      const extracted = await extractVerifiedArchive(src.path, sha256, staging);
      if (!extracted.ok) throw new Refusal('install.refused', `${src.handle.displayName} was refused while installing: ${extracted.error.message}`, { problems: [extracted.error] });
      await rm(finalDir, { recursive: true, force: true }); // a leftover of a crash: never recorded, or it would be `same`
      await mkdir(dirname(finalDir), { recursive: true });
      await rename(staging, finalDir);
      placed = true;
      const at = deps.now().toISOString();
      const receipt = await store.update((state) => {
        const prior = structuredClone(state);
        const current = own(state.packages, name);
        if (current && current.version === version) throw new Refusal('install.already_installed', `${name} ${version} is already installed`);
        const base = current ? diffUpdate(current.manifest, recordedDecisions(state, name), manifest).merged : { agents: {}, triggers: {} };
        const oldTriggers = Object.values(state.triggers).filter((t) => t.packageName === name);
        for (const agent of Object.values(state.agents)) if (agent.origin === 'package' && agent.packageName === name) delete state.agents[agent.id];
        for (const trigger of oldTriggers) {
          delete state.triggers[trigger.id];
          if (trigger.secretRef) delete state.webhookSecrets[trigger.secretRef];
        }
        for (const agent of manifest.agents ?? []) {
          const chosen = own(request.decisions.agents, agent.id)?.access ?? {};
          const kept = own(base.agents, agent.id)?.access ?? {};
          const record: PackageAgentRecord = {
            origin: 'package', id: agentIdOf(name, agent.id), packageName: name, agentId: agent.id, displayName: agent.name, description: agent.mission,
            access: offeredAccess(manifest, agent.id).map((entry) => ({ entry, family: accessFamily(manifest, entry), granted: chosen[entry] ?? kept[entry] ?? false })),
            model: agent.defaults?.model?.model ?? null, createdAt: own(prior.agents, agentIdOf(name, agent.id))?.createdAt ?? at, archived: false,
          };
          state.agents[record.id] = record;
        }
        const armed: string[] = [];
        for (const entry of manifest.triggers ?? []) {
          const record = triggerRecord(name, manifest, entry);
          const arming = own(request.decisions.triggers, entry.id);
          const old = oldTriggers.find((t) => t.name === entry.id);
          if (arming?.armed) {
            record.armed = true;
            record.armedAt = at;
            record.folder = armedFolders.get(entry.id) ?? null;
            const secret = sealed.get(entry.id);
            if (secret) {
              record.secretRef = randomUUID();
              state.webhookSecrets[record.secretRef] = secret;
            }
          } else if (arming === undefined && own(base.triggers, entry.id)?.armed && old) {
            // Unchanged and armed before: the update keeps it armed, with its folder and secret.
            record.armed = true;
            record.armedAt = old.armedAt;
            record.folder = old.folder;
            const kept = old.secretRef ? prior.webhookSecrets[old.secretRef] : undefined;
            if (old.secretRef && kept) {
              record.secretRef = old.secretRef;
              state.webhookSecrets[old.secretRef] = kept;
            }
          }
          if (record.armed) armed.push(record.id);
          state.triggers[record.id] = record;
        }
        const pkg: PackageRecord = {
          name, version, publisher: manifest.package.publisher, description: manifest.package.description ?? '', sha256,
          installedAt: current?.installedAt ?? at, updatedAt: current ? at : null, dir: finalRel, manifest,
        };
        state.packages[name] = pkg;
        const outcome: InstallReceipt['outcome'] = !current ? 'installed' : relationOf(current.version, version) === 'newer' ? 'updated' : 'downgraded';
        return {
          result: { receipt: { name, version, publisher: pkg.publisher, outcome, previousVersion: current?.version ?? null, installedAt: pkg.installedAt, armed, webhookSecrets }, oldDir: current?.dir ?? null },
        };
      });
      if (receipt.oldDir && receipt.oldDir !== finalRel) await removeAndPrune(join(deps.dataDir, receipt.oldDir), deps.dataDir);
      await removeAndPrune(staging, deps.dataDir);
      return receipt.receipt;
    } catch (error) {
      if (placed) await removeAndPrune(finalDir, deps.dataDir);
      await removeAndPrune(staging, deps.dataDir);
      throw error;
    }
  }

  // ---- apply -------------------------------------------------------------------------------

  /** A template source read and checked now, with the bytes that were checked and their digest. */
  interface CheckedTemplate {
    src: Source;
    details: TemplateDetails;
    files: ReadonlyMap<string, Uint8Array>;
    digest: string;
  }

  async function templateOf(sourceId: string): Promise<CheckedTemplate> {
    const src = source(sourceId);
    if (src.handle.kind !== 'template') throw new Refusal('apply.not_a_template', `${src.handle.displayName} is not a template folder: only templates are applied (a package is installed).`);
    const { inspection, files } = await templateModule.readTemplateFolder(src.path);
    if (!inspection.ok || !inspection.details) {
      throw new Refusal('apply.refused', `${src.handle.displayName} was refused: ${inspection.errors[0]?.message ?? 'it could not be read'}`, { problems: inspection.errors });
    }
    return { src, details: inspection.details, files, digest: templateDigest(files) };
  }

  /** What the machine holds for an apply preview; the owner's denied tools stay denied (spec "Apply" step 2). */
  function machineOf(state: StoreState): ApplyMachine {
    return {
      savedMcpServers: Object.keys(state.settings.mcpServers),
      savedSecrets: Object.keys(state.settings.secrets),
      canKeepSecrets: deps.secretBox.backend() !== 'unavailable',
      now: deps.now(),
      deniedTools: [...state.settings.deniedTools],
    };
  }

  async function previewOf(template: CheckedTemplate, request: ApiRequest<'previewApply'>): Promise<ApplyPreview> {
    const state = await store.read();
    return previewApply(template.details, { parameters: request.parameters, grants: request.grants }, machineOf(state));
  }

  /**
   * The agent's files, all from the bytes the check read (spec "Apply" step 2: "its skills and rules
   * as its skill files"; "agent.md" `output`: the schema "ships beside each SKILL.md, as a rule
   * does"): `instructions.md` (the body, filled), and for each skill every file of its folder, each
   * rule, and the output schema beside its SKILL.md. Two different files landing on one name refuse.
   */
  function agentFiles(template: CheckedTemplate, previewed: ApplyPreview): Map<string, Uint8Array> {
    const { details, files: checked } = template;
    const files = new Map<string, Uint8Array>([['instructions.md', Buffer.from(previewed.instructions, 'utf8')]]);
    const origins = new Map<string, string>();
    const put = (target: string, from: string) => {
      const bytes = checked.get(from);
      if (!bytes) throw new Error(`${from} was checked but its bytes were not kept`);
      const earlier = files.get(target);
      if (earlier && !Buffer.from(earlier).equals(Buffer.from(bytes))) {
        throw new Refusal('apply.file_collision', `${details.manifest.name}: \`${from}\` and \`${origins.get(target)}\` would both be the agent's \`${target}\`: rename one`, { path: from });
      }
      files.set(target, bytes);
      origins.set(target, from);
    };
    const schema = details.manifest.output?.schema;
    for (const skill of details.skills) {
      const dir = `skills/${skill.name}/`;
      for (const path of [...checked.keys()].sort()) if (path.startsWith(dir)) put(path, path);
      for (const rule of details.rules) put(`${dir}${rule.file}`, `rules/${rule.file}`);
      if (schema !== undefined) put(`${dir}${fileName(schema)}`, schema);
    }
    return files;
  }

  /** The apply body without its request id, in a canonical form (keys sorted), hashed. */
  function applyFingerprint(request: ApiRequest<'apply'>): string {
    const parameters = Object.fromEntries(Object.entries(request.parameters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const body = JSON.stringify({ sourceId: request.sourceId, parameters, grants: [...request.grants].sort() });
    return createHash('sha256').update(body).digest('hex');
  }

  /** The receipt of an earlier apply with this request id, if its body was the same; a different body is refused. */
  function earlierApply(state: StoreState, request: ApiRequest<'apply'>, fingerprint: string): ApplyReceipt | undefined {
    const earlier = own(state.applies, request.requestId);
    if (!earlier) return undefined;
    if (earlier.fingerprint !== undefined && earlier.fingerprint !== fingerprint) {
      throw new Refusal('apply.request_reused', 'This apply request id was already used with other parameters or grants: nothing was made. Start the apply again.');
    }
    const { fingerprint: _kept, ...receipt } = earlier;
    return receipt;
  }

  async function apply(request: ApiRequest<'apply'>): Promise<ApplyReceipt> {
    const fingerprint = applyFingerprint(request);
    const first = earlierApply(await store.read(), request, fingerprint);
    if (first) return first;
    // Apply copies from bytes checked now, and only if they are the ones the user was shown.
    const template = await templateOf(request.sourceId);
    const { src, details } = template;
    if (src.shownDigest === undefined) {
      throw new Refusal('apply.not_previewed', `${details.manifest.name} was not previewed: look at what it would make before applying it`);
    }
    if (src.shownDigest !== template.digest) {
      throw new Refusal('apply.changed', `${src.handle.displayName} changed on disk since it was previewed: look at it again before applying; nothing was made`);
    }
    const previewed = await previewOf(template, request);
    if (!previewed.canApply) {
      const blocker = previewed.blockers[0];
      throw new Refusal('apply.blocked', `Can't apply ${details.manifest.name} yet: ${blocker?.message ?? 'something is missing'}`, { problems: previewed.blockers, path: blocker?.path });
    }
    const agentId = randomUUID();
    const stagingRoot = join(deps.dataDir, 'staging');
    const staging = join(stagingRoot, randomUUID());
    const finalRel = `agents/${agentId}`;
    const finalDir = join(deps.dataDir, 'agents', agentId);
    const files = agentFiles(template, previewed);
    let placed = false;
    try {
      for (const [rel, body] of files) {
        await mkdir(dirname(join(staging, rel)), { recursive: true });
        await writeFile(join(staging, rel), body, { mode: 0o644 });
      }
      await mkdir(dirname(finalDir), { recursive: true });
      await rename(staging, finalDir);
      placed = true;
      const at = deps.now().toISOString();
      const outcome = await store.update((state) => {
        const earlier = earlierApply(state, request, fingerprint);
        if (earlier) return { result: { receipt: earlier, duplicate: true }, write: false };
        const manifest = details.manifest;
        const toolSettings: Record<string, ToolSettingRecord> = {};
        for (const tool of previewed.tools) toolSettings[tool] = { family: templateTool(tool)?.family ?? null, setting: 'allow', pin: null, pinMissing: false };
        for (const server of previewed.mcp) {
          if (!server.saved) continue; // spec "Apply": a server not saved is skipped, nothing of it granted
          for (const tool of server.tools) {
            toolSettings[tool.gateName] = { family: null, setting: tool.setting, pin: tool.pin, pinMissing: tool.pin === null && tool.pinnedBy !== undefined && tool.setting === 'deny' };
          }
        }
        const agent: TemplateAgentRecord = {
          origin: 'template', id: agentId, templateName: manifest.name, templateVersion: manifest.version, displayName: previewed.displayName,
          description: manifest.description, dir: finalRel, files: [...files.keys()], toolSettings, model: manifest.model ?? null,
          effort: manifest.effort ?? null, budgetPerRunUsd: manifest.budget?.per_run_usd ?? null, learning: manifest.learning ?? null,
          approvals: manifest.approvals ?? 'ask', preview: previewed, requestId: request.requestId, createdAt: at, archived: false,
        };
        state.agents[agentId] = agent;
        const triggerIds: string[] = [];
        for (const trigger of previewed.triggers) {
          deps.faults?.applyTrigger?.(trigger.name);
          const id = triggerIdOf(agentId, trigger.name);
          // Schedules and dates are made live by apply (spec "Apply" step 3); a webhook waits for its secret (armTrigger).
          const live = trigger.type !== 'webhook';
          state.triggers[id] = {
            id, name: trigger.name, packageName: null, agentId, target: agentId, input: trigger.input, type: trigger.type,
            schedule: trigger.cron ?? null, every: null, timezone: trigger.timezone ?? null, at: trigger.at ?? null, recursive: null,
            events: trigger.events ?? null, maxConcurrent: trigger.max_concurrent ?? null, dayRule: 'or',
            armed: live, armedAt: live ? at : null, folder: null, secretRef: null,
          };
          triggerIds.push(id);
        }
        const receipt: ApplyReceipt = { agentId, displayName: previewed.displayName, createdAt: at, triggers: triggerIds, preview: previewed };
        state.applies[request.requestId] = { ...receipt, fingerprint };
        return { result: { receipt, duplicate: false } };
      });
      if (outcome.duplicate) await removeAndPrune(finalDir, deps.dataDir);
      await removeAndPrune(staging, deps.dataDir);
      return outcome.receipt;
    } catch (error) {
      if (placed) await removeAndPrune(finalDir, deps.dataDir);
      await removeAndPrune(staging, deps.dataDir);
      throw error;
    }
  }

  // ---- the methods -------------------------------------------------------------------------

  function liveAgent(state: StoreState, agentId: string): AgentRecord {
    const agent = own(state.agents, agentId);
    if (!agent) throw new Refusal('agent.unknown', `There is no agent \`${agentId}\` on this computer.`);
    if (agent.archived) throw new Refusal('agent.archived', `${agent.displayName} is archived.`);
    return agent;
  }

  function triggerIn(state: StoreState, triggerId: string): TriggerRecord {
    const trigger = own(state.triggers, triggerId);
    if (!trigger) throw new Refusal('trigger.unknown', `There is no trigger \`${triggerId}\` on this computer.`);
    if (trigger.agentId && own(state.agents, trigger.agentId)?.archived) throw new Refusal('agent.archived', `The agent of trigger \`${triggerId}\` is archived.`);
    return trigger;
  }

  function disarm(state: StoreState, trigger: TriggerRecord): void {
    trigger.armed = false;
    trigger.armedAt = null;
    trigger.folder = null;
    if (trigger.secretRef) delete state.webhookSecrets[trigger.secretRef];
    trigger.secretRef = null;
  }

  const handlers: { [M in ApiMethod]: (request: ApiRequest<M>) => Promise<ApiResponse<M>> } = {
    appInfo: async () => ({ version: packageJson.version, sdkVersion: SDK_VERSION, secretBackend: deps.secretBox.backend() }),
    openDialog: async (request) => {
      const path = request.kind === 'file' ? await deps.dialogs.openFile() : await deps.dialogs.openFolder();
      if (path === null) return null;
      const registered = await registerSource(path, 'dialog');
      if (!registered.ok) throw new Refusal(registered.error.code, registered.error.message);
      return registered.value;
    },
    listBuiltinTemplates: () => templateModule.listBuiltinTemplates(deps.resourcesDir),
    openBuiltinTemplate: async (request) => {
      // Only a name of the shipped list, never a path: `builtinTemplateDir` refuses any other.
      const known = (await templateModule.listBuiltinTemplates(deps.resourcesDir)).some((t) => t.name === request.name);
      if (!known) throw new Refusal('template.unknown', `No built-in template is called \`${request.name}\`.`);
      const registered = await registerSource(templateModule.builtinTemplateDir(deps.resourcesDir, request.name), 'builtin');
      if (!registered.ok) throw new Refusal(registered.error.code, registered.error.message);
      return registered.value;
    },
    inspect: async (request) => {
      const src = source(request.sourceId);
      const inspection = await inspectSource(src);
      const result: SourceInspection = { ...inspection, installed: null, updateDiff: null };
      const manifest = src.handle.kind === 'apo' ? (inspection.details as ApoDetails | null)?.manifest : undefined;
      if (manifest && semver.valid(manifest.package.version)) {
        const state = await store.read();
        const installed = own(state.packages, manifest.package.name);
        if (installed) {
          const relation = relationOf(installed.version, manifest.package.version);
          result.installed = { version: installed.version, relation };
          if (relation !== 'same') result.updateDiff = diffUpdate(installed.manifest, recordedDecisions(state, installed.name), manifest);
        }
      }
      return result;
    },
    pickWatchFolder: async () => {
      const path = await deps.dialogs.openFolder();
      if (path === null) return null;
      const folderId = randomUUID();
      folders.set(folderId, path);
      return { folderId, displayPath: path };
    },
    install,
    previewApply: async (request) => {
      const template = await templateOf(request.sourceId);
      const previewed = await previewOf(template, request);
      template.src.shownDigest = template.digest;
      return previewed;
    },
    apply,
    dashboard: async () => dashboardOf(await store.read()),
    setToolAccess: (request) =>
      store.update((state) => {
        const agent = liveAgent(state, request.agentId);
        if (agent.origin === 'package') {
          const entry = agent.access.find((a) => a.entry === request.tool);
          if (!entry) throw new Refusal('access.unknown', `${agent.displayName} is not offered \`${request.tool}\`.`);
          entry.granted = request.granted;
        } else {
          const setting = own(agent.toolSettings, request.tool);
          if (!setting) throw new Refusal('access.unknown', `${agent.displayName} has no tool \`${request.tool}\`.`);
          if (request.granted && setting.pinMissing) throw new Refusal('access.pin_missing', `\`${request.tool}\` is pinned to a parameter that was not given at apply: it stays denied.`);
          setting.setting = request.granted ? 'allow' : 'deny';
        }
        return { result: agentView(state, agent) };
      }),
    armTrigger: async (request) => {
      const path = request.folderId !== undefined ? folder(request.folderId) : null;
      const current = triggerIn(await store.read(), request.triggerId);
      let secret: string | null = null;
      let sealedSecret: string | null = null;
      if (current.type === 'webhook') {
        secret = makeWebhookSecret();
        sealedSecret = await seal(secret);
      }
      return store.update((state) => {
        const trigger = triggerIn(state, request.triggerId);
        if (trigger.type === 'file_watch' && path === null) throw new Refusal('trigger.needs_folder', `trigger \`${trigger.name}\` watches a folder: pick one to arm it`);
        if (trigger.type !== 'file_watch' && path !== null) throw new Refusal('trigger.folder_not_needed', `trigger \`${trigger.name}\` is not a file_watch trigger: it watches no folder`);
        if (trigger.type === 'at' && trigger.at && Date.parse(trigger.at) <= deps.now().getTime()) throw new Refusal('trigger.past', `trigger \`${trigger.name}\` was for ${trigger.at}, which has passed`);
        if (trigger.secretRef) delete state.webhookSecrets[trigger.secretRef];
        trigger.secretRef = null;
        if (sealedSecret !== null) {
          trigger.secretRef = randomUUID();
          state.webhookSecrets[trigger.secretRef] = sealedSecret;
        }
        trigger.armed = true;
        trigger.armedAt = deps.now().toISOString();
        trigger.folder = path;
        return { result: { trigger: triggerView(trigger), webhookSecret: secret } };
      });
    },
    disarmTrigger: (request) =>
      store.update((state) => {
        const trigger = triggerIn(state, request.triggerId);
        disarm(state, trigger);
        return { result: triggerView(trigger) };
      }),
    rotateWebhookSecret: async (request) => {
      const current = triggerIn(await store.read(), request.triggerId);
      if (current.type !== 'webhook') throw new Refusal('trigger.not_webhook', `trigger \`${current.name}\` is not a webhook: it has no secret`);
      if (!current.armed) throw new Refusal('trigger.not_armed', `trigger \`${current.name}\` is not armed: arm it to make its secret`);
      const secret = makeWebhookSecret();
      const sealedSecret = await seal(secret);
      return store.update((state) => {
        const trigger = triggerIn(state, request.triggerId);
        if (!trigger.armed) throw new Refusal('trigger.not_armed', `trigger \`${trigger.name}\` is not armed: arm it to make its secret`);
        if (trigger.secretRef) delete state.webhookSecrets[trigger.secretRef];
        trigger.secretRef = randomUUID();
        state.webhookSecrets[trigger.secretRef] = sealedSecret;
        return { result: { trigger: triggerView(trigger), webhookSecret: secret } };
      });
    },
    uninstallPackage: async (request) => {
      const pkg = own((await store.read()).packages, request.name);
      if (!pkg) throw new Refusal('package.unknown', `No package called \`${request.name}\` is installed.`);
      // Files first moved out of the way, then the records go in one write; a failed write puts the files back.
      const dir = join(deps.dataDir, 'packages', pkg.name);
      const trash = join(deps.dataDir, 'staging', randomUUID());
      await mkdir(dirname(trash), { recursive: true });
      const moved = await rename(dir, trash).then(
        () => true,
        () => false,
      );
      try {
        const receipt = await store.update((state) => {
          const current = own(state.packages, request.name);
          if (!current) throw new Refusal('package.unknown', `No package called \`${request.name}\` is installed.`);
          const removedAgents: string[] = [];
          const removedTriggers: string[] = [];
          for (const agent of Object.values(state.agents)) {
            if (agent.origin === 'package' && agent.packageName === request.name) {
              delete state.agents[agent.id];
              removedAgents.push(agent.id);
            }
          }
          for (const trigger of Object.values(state.triggers)) {
            if (trigger.packageName === request.name) {
              disarm(state, trigger);
              delete state.triggers[trigger.id];
              removedTriggers.push(trigger.id);
            }
          }
          delete state.packages[request.name];
          return { result: { name: current.name, version: current.version, removedAgents, removedTriggers } };
        });
        await removeAndPrune(trash, deps.dataDir);
        await removeAndPrune(dir, deps.dataDir);
        return receipt;
      } catch (error) {
        if (moved) await rename(trash, dir).catch(() => undefined);
        await removeAndPrune(trash, deps.dataDir);
        throw error;
      }
    },
    archiveAgent: (request) =>
      store.update((state) => {
        const agent = liveAgent(state, request.agentId);
        if (agent.origin === 'package') throw new Refusal('agent.part_of_package', `${agent.displayName} belongs to the package ${agent.packageName}: uninstall the package instead.`);
        agent.archived = true;
        for (const trigger of Object.values(state.triggers)) if (trigger.agentId === agent.id) disarm(state, trigger);
        return { result: agentView(state, agent) };
      }),
    settings: async () => settingsOf(await store.read()),
    saveMcpServer: (request) => {
      const network = request.transport !== 'stdio';
      if (request.name === '__proto__') throw new Refusal('mcp.invalid', 'MCP server `__proto__`: that name is reserved');
      if (!network && (request.command === undefined || request.url !== undefined)) {
        throw new Refusal('mcp.invalid', `MCP server \`${request.name}\`: a stdio server is a command line (command and args), with no url`);
      }
      if (network) {
        let url: URL | null = null;
        try {
          url = request.url === undefined ? null : new URL(request.url);
        } catch {
          url = null;
        }
        if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || request.command !== undefined || request.args !== undefined) {
          throw new Refusal('mcp.invalid', `MCP server \`${request.name}\`: a ${request.transport} server is an http(s) url, with no command`);
        }
      }
      return store.update((state) => {
        state.settings.mcpServers[request.name] = network
          ? { name: request.name, transport: request.transport, url: request.url as string }
          : { name: request.name, transport: 'stdio', command: request.command as string, args: request.args ?? [] };
        return { result: settingsOf(state) };
      });
    },
    removeMcpServer: (request) =>
      store.update((state) => {
        if (!Object.hasOwn(state.settings.mcpServers, request.name)) throw new Refusal('mcp.unknown', `No MCP server \`${request.name}\` is saved.`);
        delete state.settings.mcpServers[request.name];
        return { result: settingsOf(state) };
      }),
    saveSecret: async (request) => {
      if (!SECRET_NAMES.some((s) => s.name === request.name)) throw new Refusal('secret.unknown_name', `\`${request.name}\` is not a secret this app can keep (see Settings for the names it knows).`);
      const sealedValue = await seal(request.value);
      return store.update((state) => {
        state.settings.secrets[request.name] = { sealed: sealedValue, savedAt: deps.now().toISOString() };
        return { result: settingsOf(state) };
      });
    },
    removeSecret: (request) =>
      store.update((state) => {
        if (!Object.hasOwn(state.settings.secrets, request.name)) throw new Refusal('secret.unknown', `No secret \`${request.name}\` is saved.`);
        delete state.settings.secrets[request.name];
        return { result: settingsOf(state) };
      }),
    denyTool: (request) => {
      const problem = deniedToolProblem(request.tool);
      if (problem !== null) throw new Refusal('tool.invalid', problem, { path: 'tool' });
      return store.update((state) => {
        const denied = state.settings.deniedTools;
        // Denying a tool already denied changes nothing and writes nothing.
        if (denied.includes(request.tool)) return { result: settingsOf(state), write: false };
        if (denied.length >= MAX_DENIED_TOOLS) throw new Refusal('tool.too_many', `At most ${MAX_DENIED_TOOLS} tools can be on the list of tools you never allow: remove one first.`);
        state.settings.deniedTools = [...denied, request.tool].sort();
        return { result: settingsOf(state) };
      });
    },
    removeDeniedTool: (request) =>
      store.update((state) => {
        const denied = state.settings.deniedTools;
        if (!denied.includes(request.tool)) throw new Refusal('tool.not_denied', `\`${request.tool}\` is not on the list of tools you never allow.`);
        state.settings.deniedTools = denied.filter((tool) => tool !== request.tool);
        return { result: settingsOf(state) };
      }),
  };

  const api = { registerSource, store } as CoreApiImplementation;
  for (const method of API_METHODS) {
    const handler = handlers[method] as (request: unknown) => Promise<unknown>;
    (api as unknown as Record<string, (request: unknown) => Promise<ApiResult<unknown>>>)[method] = async (request: unknown) => {
      const problem = requestProblem(method, request);
      if (problem) return { ok: false, error: problem };
      try {
        return { ok: true, value: await handler(request === null ? undefined : request) };
      } catch (error) {
        if (error instanceof Refusal) return { ok: false, error: { code: error.code, message: error.message, ...error.extra } };
        if (error instanceof StoreError || error instanceof StoreBusyError) return { ok: false, error: { code: error.code, message: error.message } };
        log(`apollia: ${method} failed`, error);
        return { ok: false, error: { code: 'internal', message: `Something went wrong (${method}): ${error instanceof Error ? error.message : String(error)}` } };
      }
    };
  }
  return api;
}
