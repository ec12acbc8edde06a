/**
 * The apply preview (`apply-preview.ts` computes it and re-exports these types), once with TypeBox. Loaded only
 * by tests and tools.
 */
import { type Static, Type } from 'typebox';
import { closed, exactly, mapOf, oneOf, orNull, shaped } from '../base/schema-kit';
import type { ParameterValue, PinValue } from '../manifests/template-manifest';

const str = Type.String();
const nstr = orNull('string');

const PIN_SCALAR_TYPES = ['string', 'number', 'boolean', 'null'];

/** A pin filled: argument → a scalar (`null`: left out) or a canonical list of them; null when none. */
export const FilledPinSchema = shaped<Record<string, PinValue> | null>({
  type: ['object', 'null'],
  additionalProperties: { type: [...PIN_SCALAR_TYPES, 'array'], items: { type: PIN_SCALAR_TYPES } },
});

/** One field of the parameter form after checking. */
export const PreviewParameterSchema = closed({
  /** The value apply uses (the given one, else the default), or null when none. */
  value: shaped<ParameterValue | null>({ type: ['string', 'number', 'boolean', 'null'] }),
  error: Type.Optional(str),
});
export type PreviewParameter = Static<typeof PreviewParameterSchema>;

/** One MCP tool as apply would set it. */
export const PreviewMcpToolSchema = closed({
  name: str,
  gateName: str,
  /** What the package asks for it (its `allow` list), shown for consent; never a grant by itself. */
  asks: oneOf(['allow', 'ask']),
  /**
   * What apply writes: `allow` only when granted; `deny` when the owner denies it or its pin's parameter is missing.
   */
  setting: oneOf(['allow', 'ask', 'deny']),
  /** The pin, filled; null when the tool is not pinned or its pin could not be filled (then it is denied). */
  pin: FilledPinSchema,
  /** The parameters the pin is filled from. */
  pinnedBy: Type.Optional(Type.Array(str)),
  /** The owner denies it on this machine (Settings → Tools you never allow): denied whatever the grants say. */
  ownerDenied: Type.Optional(exactly(true)),
  /** The pin in words, for the consent screen. */
  pinText: Type.Optional(str),
});
export type PreviewMcpTool = Static<typeof PreviewMcpToolSchema>;

/** One `mcp` entry as apply would grant it. `saved: false` means apply skips it: nothing of it is granted. */
export const PreviewMcpServerSchema = closed({
  server: str,
  saved: Type.Boolean(),
  required: Type.Boolean(),
  tools: Type.Array(PreviewMcpToolSchema),
});
export type PreviewMcpServer = Static<typeof PreviewMcpServerSchema>;

/** One trigger as apply would make it, its parameters filled. */
export const PreviewTriggerSchema = closed({
  name: str,
  type: oneOf(['schedule', 'at', 'webhook']),
  cron: Type.Optional(str),
  timezone: Type.Optional(str),
  /** The schedule in words (standard cron day rule, in its zone). */
  words: Type.Optional(str),
  /** Next fire times, ISO 8601 (a schedule's next three; an `at` trigger's date when still ahead). */
  next: Type.Array(str),
  at: Type.Optional(str),
  events: Type.Optional(Type.Array(str)),
  max_concurrent: Type.Optional(Type.Number()),
  /** The run's input, filled. */
  input: nstr,
  error: Type.Optional(str),
});
export type PreviewTrigger = Static<typeof PreviewTriggerSchema>;

/** A warning or a blocker of the preview. */
export const PreviewProblemSchema = closed({ code: str, path: Type.Optional(str), message: str });
export type PreviewProblem = Static<typeof PreviewProblemSchema>;

const approvals = oneOf(['ask', 'never']);

/** `previewApply`: everything apply would make, and whether it can. */
export const ApplyPreviewSchema = closed({
  displayName: str,
  /** agent.md's body with the parameters filled. */
  instructions: str,
  parameters: mapOf(PreviewParameterSchema),
  /** Native tools the agent gets (the owner's denied ones and those the owner unticked left out). */
  tools: Type.Array(str),
  /** Native tools of the template the owner unticked: recorded as `deny`, allowed later on the dashboard if wanted. */
  withheld: Type.Array(str),
  /**
   * The approvals the agent is made with (the owner's choice, else the template's), and the template's recommendation.
   */
  approvals: closed({ chosen: approvals, recommended: approvals }),
  mcp: Type.Array(PreviewMcpServerSchema),
  triggers: Type.Array(PreviewTriggerSchema),
  secrets: Type.Array(closed({ name: str, saved: Type.Boolean() })),
  warnings: Type.Array(PreviewProblemSchema),
  blockers: Type.Array(closed({ code: str, path: str, message: str })),
  canApply: Type.Boolean(),
});
export type ApplyPreview = Static<typeof ApplyPreviewSchema>;
