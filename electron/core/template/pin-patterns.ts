/**
 * A pinned parameter checked by an unanchored pattern (a decision where the spec is
 * silent). The spec's `pattern` is JSON Schema's: searched anywhere in the value, so `C[0-9]+`
 * accepts `xC1y`. That is correct and stays accepted; but where the parameter is a pin's
 * destination ("A pinned send goes only where the owner set"), the check warns the author to
 * anchor it (`^…$`), and the apply form says that any value containing a match passes.
 */
import type { Problem } from '../../../shared/manifests/inspection';
import { isAnchoredPattern } from '../../../shared/manifests/package-pattern';
import { pinnedParameters, type TemplateManifest } from '../../../shared/manifests/template-manifest';

/** One warning per pinned parameter whose pattern is not anchored at both ends. */
export function unanchoredPinWarnings(manifest: TemplateManifest): Problem[] {
  const warnings: Problem[] = [];
  const defs = manifest.parameters ?? {};
  for (const [name, tools] of pinnedParameters(manifest.mcp)) {
    const pattern = Object.hasOwn(defs, name) ? defs[name]?.pattern : undefined;
    if (pattern === undefined || isAnchoredPattern(pattern)) continue;
    const pinned = [...tools]
      .slice(0, 3)
      .map((tool) => `\`${tool}\``)
      .join(', ');
    warnings.push({
      code: 'template.unanchored_pattern',
      path: `parameters.${name}.pattern`,
      message: `agent.md: \`parameters.${name}.pattern\` \`${pattern}\` is not anchored, and ${pinned}${tools.size > 3 ? ` and ${tools.size - 3} more` : ''} ${tools.size === 1 ? 'is' : 'are'} pinned to \`${name}\`: any value that contains a match passes (as JSON Schema's \`pattern\` is searched); anchor it as \`^…$\` so only a whole destination does`,
    });
  }
  return warnings;
}
