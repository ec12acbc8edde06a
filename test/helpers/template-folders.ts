/**
 * Test helper: writes template folders into os.tmpdir() from a manifest object and a map of files,
 * so each refusal test breaks exactly one thing of a valid package.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import YAML from 'yaml';

/** A manifest as a test edits it: plain data, any shape. */
export type LooseManifest = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A valid manifest for a folder named `digest`, using most fields. */
export function validManifest(): LooseManifest {
  return {
    name: 'digest',
    display_name: 'Digest for ${parameters.channel}',
    version: '0.1.0',
    description: 'Writes a digest.',
    license: 'MIT',
    author: { name: 'Test Author', email: 'a@example.com', url: 'https://example.com' },
    repository: 'https://example.com/digest',
    harness: ['pi', 'claude-agent'],
    model: { tier: 'balanced', prefer: 'anthropic/claude-sonnet-4' },
    effort: 'medium',
    tools: ['web_search', 'web_fetch'],
    mcp: [
      {
        server: 'slack',
        tools: ['send', 'read_history'],
        allow: ['read_history'],
        pin: { send: { channel_id: '${parameters.channel}', event: [null, 'COMMENT'] } },
      },
    ],
    computer: 'default',
    parameters: {
      depth: { type: 'integer', default: 2, description: 'How many pages to read per company.' },
      channel: { type: 'string', pattern: '^C[A-Z0-9]{8}$', description: 'A Slack channel ID like C0123ABCD.' },
      cron: { type: 'string', default: '0 8 * * 1', description: 'When, as 5-field cron.' },
    },
    secrets: ['PARALLEL_API_KEY'],
    budget: { per_run_usd: 1 },
    learning: true,
    approvals: 'never',
    triggers: [
      {
        name: 'weekly',
        type: 'schedule',
        cron: '${parameters.cron}',
        timezone: 'UTC',
        target: { type: 'start_run', input: 'Digest for ${parameters.channel}' },
      },
      { name: 'hook', type: 'webhook', events: ['lead.submitted'], max_concurrent: 3, target: { type: 'start_run' } },
      { name: 'once', type: 'at', at: '2027-03-01T09:00:00Z', target: { type: 'start_run', input: 'Launch day' } },
    ],
    output: { schema: 'out.schema.json' },
    checks: ['has-sources'],
  };
}

/** The files of a valid package besides agent.md. */
export function validFiles(): Record<string, string | Buffer> {
  return {
    'out.schema.json': JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' }),
    'README.md': '# Digest\n',
    'skills/digest/SKILL.md': '---\nname: digest\ndescription: Digest one company.\n---\nDo it well.\n',
    'rules/sources.md': '# Sources\nCite them.\n',
    'evals/basic/prompt.md': '---\ndescription: A basic run.\nruns: 1\nmax_cost_usd: 0.5\n---\nWrite the digest.\n',
    'evals/basic/case.yaml':
      'parameters:\n  channel: C0123ABCD\ngrants:\n  - mcp:slack/send\nmcp:\n  slack: fixtures/slack.json\n',
    'evals/basic/fixtures/slack.json': JSON.stringify({
      server: 'slack',
      description: 'A fake Slack.',
      tools: {
        send: {
          description: 'Send.',
          input: { type: 'object' },
          answers: [{ when: { channel_id: 'C0123ABCD' }, result: { content: [{ type: 'text', text: 'ok' }] } }],
          default: { content: [], isError: true },
        },
      },
    }),
    'evals/basic/graders/quality.md': '---\ntype: llm\n---\nThe digest cites its sources.\n',
    'evals/basic/graders/sent.md': '---\ntype: tool_used\ntool: mcp:slack/send\nargs:\n  channel_id: C0123ABCD\n---\n',
  };
}

/** agent.md text from a manifest and a body. */
export function agentMd(manifest: LooseManifest, body = 'Write the digest for ${parameters.channel}.\n'): string {
  return `---\n${YAML.stringify(manifest)}---\n${body}`;
}

/** Writes a folder `<tmp>/<random>/<name>` holding `files`; returns its path. */
export function writeFolder(files: Record<string, string | Buffer>, name = 'digest'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'apollia-template-')), name);
  mkdirSync(dir, { recursive: true });
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
  return dir;
}

/** Writes a valid package after `edit` changed its manifest and files; returns its path. */
export function writeTemplate(
  edit: (manifest: LooseManifest, files: Record<string, string | Buffer>) => void = () => undefined,
  options: { name?: string; body?: string } = {},
): string {
  const manifest = validManifest();
  const files = validFiles();
  files['agent.md'] = agentMd(manifest, options.body);
  edit(manifest, files);
  if (files['agent.md'] === agentMd(validManifest(), options.body)) files['agent.md'] = agentMd(manifest, options.body);
  return writeFolder(files, options.name);
}
