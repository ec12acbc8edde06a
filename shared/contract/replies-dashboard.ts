/**
 * The Api's two overviews, the dashboard and Settings, and a picked folder. Once each with TypeBox; loaded only by
 * tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, orNull } from '../base/schema-kit';
import { SavedMcpServerSchema } from './api-requests';
import { SecretBackendSchema } from './replies-app';
import {
  ActivityExportViewSchema,
  AgentViewSchema,
  InstalledPackageViewSchema,
  KnownToolSchema,
  StoreDamageSchema,
} from './replies-installed';
import { PolicyViewSchema } from '../policy/policy-in-force-schema';

const str = Type.String();
const nstr = orNull('string');

/**
 * `dashboard`; `policy`: the organization's policy: "Managed by …", and the banner when it withholds
 * something installed or cannot be read. `activityExport`: the record's export to the collector in effect (the
 * policy's, else the person's; absent when none is named), so the first screen can say while sending fails.
 */
export const DashboardSchema = closed({
  packages: Type.Array(InstalledPackageViewSchema),
  agents: Type.Array(AgentViewSchema),
  damage: Type.Array(StoreDamageSchema),
  policy: Type.Optional(closed({ view: PolicyViewSchema, managedBy: nstr, notice: nstr })),
  activityExport: Type.Optional(ActivityExportViewSchema),
});
export type Dashboard = Static<typeof DashboardSchema>;

/**
 * A saved MCP server as Settings shows it: every credential in its url or arguments shown as `••••`
 * (`https://mcp.example.com/?token=••••`); `credentialsSealed` when the real ones are kept encrypted
 * by the secret box (only the runtime that starts the server opens them); `managed` when the
 * organization's policy provides it (locked).
 */
const { env: _sealedEnv, ...shownServerProperties } = SavedMcpServerSchema.properties;
// A server's environment is sealed whole: the view never carries it (not even its names).
export const SavedMcpServerViewSchema = closed({
  ...shownServerProperties,
  credentialsSealed: Type.Boolean(),
  managed: Type.Optional(Type.Boolean()),
});
export type SavedMcpServerView = Static<typeof SavedMcpServerViewSchema>;

/**
 * `settings`. `secrets`: every secret name of the catalogue, and whether a value is saved (values
 * are never returned). `connections`: connection types and whether this machine has one (the honest
 * minimal model: a connection is available only when an MCP server is saved under its type's name,
 * `gmail`, `slack`, …). `deniedTools`: tools the owner never allows on this computer (Settings →
 * Tools you never allow), sorted: gate names (`mcp:<server>/<tool>`) and native tool names; an apply
 * never grants one (template spec "Apply" step 2: it stays denied, with a `grants.<tool>` warning).
 * `webhookPort`: the port the webhook listener binds on 127.0.0.1, whether the owner chose it (else
 * the default) and whether the organization's policy fixes it (locked). `policy`: the organization's
 * policy in force (none, applied, or unreadable). `knownTools`: every tool the app knows, for the
 * "never allow" picker: the native tools of the catalogue (`.apo` and template), then the MCP tools
 * named by the built-in templates and by the agents on this computer, as gate names; sorted by
 * name, without the ones already denied.
 */
export const SettingsViewSchema = closed({
  secretBackend: SecretBackendSchema,
  mcpServers: Type.Array(SavedMcpServerViewSchema),
  secrets: Type.Array(closed({ name: str, label: str, saved: Type.Boolean() })),
  connections: Type.Array(closed({ type: str, label: str, available: Type.Boolean() })),
  deniedTools: Type.Array(str),
  webhookPort: closed({ port: Type.Number(), chosen: Type.Boolean(), managed: Type.Optional(Type.Boolean()) }),
  policy: Type.Optional(PolicyViewSchema),
  knownTools: Type.Array(KnownToolSchema),
});
export type SettingsView = Static<typeof SettingsViewSchema>;

/**
 * `pickWatchFolder`: the folder picked for a file_watch trigger, referred to by id from then on, and
 * its real path (links resolved) for display; null when the dialog was cancelled.
 */
export const PickedFolderSchema = Type.Union([closed({ folderId: str, displayPath: str }), Type.Null()]);
export type PickedFolder = Static<typeof PickedFolderSchema>;
