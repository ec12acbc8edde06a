/**
 * The five templates the app ships in `resources/templates/` (spec: agentrun-template-packages.md
 * "The packages this server ships"), as cards for the template list. The words are the spec's
 * table; each card is listed only when its folder is there, and every folder is checked whole by
 * `inspectTemplateFolder` before it is applied, like any other.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuiltinTemplateCard } from '../../../shared/manifests/template-manifest';

export type { BuiltinTemplateCard } from '../../../shared/manifests/template-manifest';

/** The spec's table, in its order. */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplateCard[] = [
  {
    name: 'code-review',
    title: 'Code review',
    whatItDoes:
      "Reviews a pull request for real bugs and posts one comment review, never an approval (its write is pinned to COMMENT). A fork's PR is reviewed when a writer comments `@<bot> review`, read through the base repository's PR, never by cloning the fork.",
    startedBy: 'A run naming a PR, or a GitHub webhook trigger you add.',
    needs: 'The GitHub MCP server `github` to read and post; with none, a diff in the message.',
  },
  {
    name: 'kyb',
    title: 'Know your business (KYB)',
    whatItDoes:
      'Business due diligence: identity, owners, sanctions against the lists themselves, adverse media, a verdict, every claim cited.',
    startedBy: 'A run naming a company.',
    needs: 'Nothing; web tools only.',
  },
  {
    name: 'market-monitor',
    title: 'Market monitor',
    whatItDoes: 'A weekly digest of what changed at the companies you watch, posted to one Slack channel or address.',
    startedBy: 'A weekly schedule (its `cron` and `timezone` parameters, Monday 08:00 UTC by default), or a run.',
    needs: 'Optional: Slack (`slack`) or Gmail (`gmail`) MCP, to send.',
  },
  {
    name: 'inbound-lead',
    title: 'Inbound lead',
    whatItDoes: 'Researches a form or CRM lead, scores it against your ICP, writes back to HubSpot or posts to Slack.',
    startedBy:
      'A webhook (needs a signing secret): your form tool signs Standard Webhooks bodies of type `lead.submitted`, each lead its own run (3 at once); or a run.',
    needs: 'Optional: HubSpot (`hubspot`) or Slack (`slack`) MCP.',
  },
  {
    name: 'release-notes',
    title: 'Release notes',
    whatItDoes:
      'Turns the merged PRs since the last release into user-facing notes, as a draft issue to edit (no MCP tool makes a draft release).',
    startedBy: 'A run naming the release or tag.',
    needs: 'The GitHub MCP server `github`; with none, a list of PRs in the message.',
  },
];

/** The folder of built-in template `name` under the app's resources folder. Throws for a name that is not one. */
export function builtinTemplateDir(resourcesDir: string, name: string): string {
  if (!BUILTIN_TEMPLATES.some((card) => card.name === name)) throw new Error(`${name} is not a built-in template`);
  return join(resourcesDir, 'templates', name);
}

/** The built-in templates present under `resourcesDir/templates/`, as cards, in the spec's order. */
export async function listBuiltinTemplates(resourcesDir: string): Promise<BuiltinTemplateCard[]> {
  const present: BuiltinTemplateCard[] = [];
  for (const card of BUILTIN_TEMPLATES) {
    try {
      const stats = await lstat(join(builtinTemplateDir(resourcesDir, card.name), 'agent.md'));
      if (stats.isFile()) present.push({ ...card });
    } catch {
      // Not shipped in this build: left off the list.
    }
  }
  return present;
}
