/** The store's current format (its records and schema: `format-9.ts`). */

/**
 * The state file's format version. A newer file is refused, never rewritten; an older one is
 * migrated on load (`migrateState`) and written in this format by the next change.
 *
 * 2: `settings.deniedTools`. A bump rather than an optional field: every object of the format is
 * closed, so an app of format 1 would take a file holding the new field for damaged and set it
 * aside; with the bump it refuses it as `store.future_version` and leaves it as it is.
 *
 * 3: each trigger's webhook secret origin (`secretOrigin`, `secretSetAt`); `trustedKeys` and
 * `packageTrust`; `settings.webhookPort`; `settings.mcpServers[*].sealed` (MCP server credentials).
 *
 * 4: (one decision model) each package agent's `access[*].permission`: how a granted entry runs,
 * decided once by `shared/decisions/decisions.ts` and kept (`migrateFrom3`).
 *
 * 5: key pins hold the whole public key, not only its id (DESIGN.md "Trust after install"), and
 * each package's signature summary its `public_key` (`migrateFrom4`).
 *
 * 6: `feeds` (each feed followed and the highest serial seen from it) and `packageUpdates` (each
 * feed-installed package's update mode and kept archives), DESIGN.md "Feeds" (`migrateFrom5`). A feed's
 * record may also hold, each optional so every format-6 file stays valid, the key it was added with
 * (`publicKey`) and its last `ETag` with the SHA-256 of the copy kept in `feeds/` (`etag`, `keptSha256`).
 *
 * 7: `record`, the activity record's committed head and the last change's outbox, DESIGN.md
 * "Commit points" (`migrateFrom6`).
 *
 * 8: each trigger's `pausedAt`, the person's pause (DESIGN.md "Triggers at run time": armed, its folder and
 * secret kept, not firing), null for every trigger of format 7 (`migrateFrom7`).
 *
 * 9: `settings.activityCollector`, the OpenTelemetry collector the person named for the activity record (the
 * policy's `activityExport.otlp` wins over it), null for every file of format 8 (`migrateFrom8`).
 */
export const STATE_VERSION = 9;
