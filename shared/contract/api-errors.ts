/**
 * Every code an Api method answers in `error.code`, listed once (STYLE.md "errors (expected, handled,
 * shown) from exceptions (bugs, logged)"): core throws them (`CoreError`), the renderer and the CLI
 * compare against them, and `ApiError.code` is this union, so a misspelt code fails the typecheck.
 */
import type { DecisionProblemCode } from '../decisions/decision-problems';
import type { PolicyRefusalCode } from '../policy/policy';
import type { WebhookSecretProblemCode } from '../triggers/webhook-secret';

/** Every code an Api method answers in `error.code`. */
export type ApiErrorCode =
  // the boundary
  | 'request.invalid'
  | 'internal'
  | 'ipc.forbidden_sender'
  | 'ipc.internal'
  // the renderer's side of the boundary (renderer/api/bridge.ts)
  | 'bridge.missing'
  | 'bridge.failed'
  | 'bridge.malformed'
  | 'renderer.unexpected'
  // the app itself: started with Chromium's sandbox off (`--no-sandbox`), nothing is installed
  | 'app.sandbox_off'
  | 'login.unavailable'
  // sources and picked folders
  | 'source.not_found'
  | 'source.unreadable'
  | 'source.not_a_file'
  | 'source.unknown'
  | 'folder.unknown'
  | 'folder.not_found'
  | 'folder.changed'
  | 'template.unknown'
  // the store
  | 'store.busy'
  | 'store.future_version'
  | 'store.changed'
  // an operating system I/O failure said as a sentence (electron/core/errors/io-fault.ts)
  | 'io.failed'
  // what the decision function refuses in an answer (shared/decisions/decisions.ts)
  | DecisionProblemCode
  // what the organization's policy refuses (policy/index.ts)
  | PolicyRefusalCode
  // install and uninstall
  | 'install.not_a_package'
  | 'install.not_inspected'
  | 'install.refused'
  | 'install.unknown_agent'
  | 'install.unknown_access'
  | 'install.unknown_trigger'
  | 'install.already_installed'
  | 'install.downgrade'
  | 'install.denied_tool'
  | 'package.unknown'
  | 'package.changed'
  // reinstall (the CLI's way back after the integrity check): another version given, or files unchanged
  | 'reinstall.other_version'
  | 'reinstall.unchanged'
  // reinstall: other bytes of the installed name and version (another package), or the file changed meanwhile
  | 'reinstall.other_bytes'
  | 'reinstall.source_changed'
  // pack (the CLI's): the output file is a folder, or holds other bytes and --force was not given
  | 'pack.output_is_folder'
  | 'pack.output_exists'
  // apply
  | 'apply.not_a_template'
  | 'apply.refused'
  | 'apply.not_previewed'
  | 'apply.changed'
  | 'apply.blocked'
  | 'apply.file_collision'
  | 'apply.request_reused'
  | 'apply.unknown_trigger'
  | 'apply.webhook_not_armed_here'
  // refused sources (Move to Trash)
  | 'trash.not_refused'
  | 'trash.unavailable'
  | 'trash.failed'
  // the download page (a refusal that says to update the app)
  | 'link.unavailable'
  | 'link.failed'
  // agents and their access
  | 'agent.unknown'
  | 'agent.archived'
  | 'agent.part_of_package'
  | 'access.unknown'
  | 'access.not_granted'
  | 'access.pin_missing'
  | 'access.server_missing'
  // triggers
  | 'trigger.unknown'
  | 'trigger.needs_folder'
  | 'trigger.folder_not_needed'
  | 'trigger.folder_forbidden'
  | 'trigger.past'
  | 'trigger.not_webhook'
  | 'trigger.not_armed'
  // waiting runs (`runs/pending/`): seen and discarded
  | 'run.unknown'
  | 'run.none_waiting'
  | 'run.not_discarded'
  // A webhook secret given by the sender (shared/triggers/webhook-secret.ts), and where one may be set
  | 'trigger.secret_not_needed'
  | WebhookSecretProblemCode
  // settings
  | 'mcp.invalid'
  | 'mcp.unknown'
  // the person's collector for the activity record: an address that cannot be used
  | 'collector.invalid'
  | 'secret.unavailable'
  | 'secret.key_damaged'
  | 'secret.unknown_name'
  | 'secret.unknown'
  | 'tool.invalid'
  | 'tool.too_many'
  | 'tool.not_denied'
  // feeds: a publisher's signed feed, its fetch and its downloads (electron/core/feeds/README.md)
  | 'feed.address_refused'
  | 'feed.network'
  | 'feed.timeout'
  | 'feed.too_large'
  | 'feed.redirect_elsewhere'
  | 'feed.unsigned'
  | 'feed.unknown_key'
  | 'feed.signature_invalid'
  | 'feed.malformed'
  | 'feed.wrong_url'
  | 'feed.serial_lower'
  | 'feed.expired'
  | 'feed.unknown_package'
  | 'feed.unknown_version'
  | 'feed.no_version'
  | 'feed.size_mismatch'
  | 'feed.hash_mismatch'
  | 'feed.not_allowed'
  | 'feed.not_followed'
  | 'link.invalid'
  | 'update.no_feed'
  | 'update.none'
  | 'update.held'
  | 'rollback.none'
  | 'rollback.done'
  // trust: signatures, trusted keys, key pins
  | 'signature.key_changed'
  | 'trust.duplicate_key'
  | 'trust.duplicate_name'
  | 'trust.bad_name'
  | 'trust.too_many_keys'
  | 'trust.not_found'
  | 'trust.bad_key_id'
  | 'trust.bad_list'
  | 'key.malformed'
  | 'key.unknown_algorithm'
  | 'key.unreadable';
