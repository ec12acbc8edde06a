/**
 * The catalogues the app ships as data (DESIGN.md "Catalogues"): native tools with their action
 * family, known connection types, and the secret names a template may ask for.
 */
import type { ActionFamily } from './apollia-manifest';
import nativeTools from '../../resources/catalogues/native-tools.json';
import connectionTypes from '../../resources/catalogues/connection-types.json';
import secretNames from '../../resources/catalogues/secret-names.json';

/** A tool the local runtime binds natively. */
export interface NativeTool {
  name: string;
  family: ActionFamily;
  description: string;
}

/** Native tools an `.apo` agent's `defaults.access` may name. */
export const APOLLIA_NATIVE_TOOLS: readonly NativeTool[] = nativeTools.apollia as NativeTool[];
/** Tools an `agent.md` `tools` list may name (anything else is refused). */
export const TEMPLATE_TOOLS: readonly NativeTool[] = nativeTools.template as NativeTool[];
/** Connection types the runtime knows, with a label for people. */
export const CONNECTION_TYPES: readonly { type: string; label: string }[] = connectionTypes.types;
/** Secret names a template's `secrets` may list (anything else is refused). */
export const SECRET_NAMES: readonly { name: string; label: string }[] = secretNames.names;

/** The native `.apo` tool called `name`, if the catalogue has it. */
export function apolliaNativeTool(name: string): NativeTool | undefined {
  return APOLLIA_NATIVE_TOOLS.find((tool) => tool.name === name);
}

/** The template tool called `name`, if the catalogue has it. */
export function templateTool(name: string): NativeTool | undefined {
  return TEMPLATE_TOOLS.find((tool) => tool.name === name);
}

/**
 * Built-in tools that reach the internet although their family is `read`: what they fetch or
 * search for is sent out (a query or a URL can carry personal data). The verdict, the risk summary
 * and every tool row read this one list, so they never disagree about a web tool.
 */
export const WEB_TOOLS: ReadonlySet<string> = new Set(['web_fetch', 'web_search']);

/** Whether the built-in tool `name` sends what it looks up outside this computer. */
export function reachesOutside(name: string): boolean {
  return WEB_TOOLS.has(name);
}
