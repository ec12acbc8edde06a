import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewApply } from '../../../shared/decisions/apply-preview';
import type { TemplateDetails } from '../../../shared/manifests/template-manifest';
import { BUILTIN_TEMPLATES, builtinTemplateDir, listBuiltinTemplates } from './builtin';
import { inspectTemplate } from './index';

const RESOURCES = join(__dirname, '..', '..', '..', 'resources');
const NOW = new Date('2026-05-06T12:00:00Z');

async function details(name: string): Promise<TemplateDetails> {
  const result = await inspectTemplate(builtinTemplateDir(RESOURCES, name));
  expect(result.errors).toEqual([]);
  return result.details as TemplateDetails;
}

describe('built-in templates', () => {
  for (const card of BUILTIN_TEMPLATES) {
    it(`${card.name} is accepted by the folder check`, async () => {
      const result = await inspectTemplate(builtinTemplateDir(RESOURCES, card.name));
      expect(result.errors).toEqual([]);
      expect(result.ok).toBe(true);
      expect(result.summary?.name).toBe(card.name);
      expect(result.details?.skills.length).toBeGreaterThan(0);
      expect(result.details?.rules.length).toBeGreaterThan(0);
      expect(result.details?.evals.length).toBeGreaterThan(0);
    });
  }

  it('lists the five cards in the spec table order', async () => {
    const cards = await listBuiltinTemplates(RESOURCES);
    expect(cards.map((card) => card.name)).toEqual([
      'code-review',
      'kyb',
      'market-monitor',
      'inbound-lead',
      'release-notes',
    ]);
    expect(cards[2]?.startedBy).toContain('Monday 08:00 UTC by default');
  });

  it('refuses a name that is not built in', () => {
    expect(() => builtinTemplateDir(RESOURCES, '../etc')).toThrow('../etc is not a built-in template');
  });

  it('no package puts a write in its allow, and trigger-driven ones run unattended', async () => {
    const writes = /send|create|update|add_comment|submit|delete|write|post/i;
    for (const card of BUILTIN_TEMPLATES) {
      const { manifest } = await details(card.name);
      for (const entry of manifest.mcp ?? []) {
        expect(
          (entry.allow ?? []).filter((tool) => writes.test(tool)),
          `${card.name} ${entry.server}`,
        ).toEqual([]);
      }
      if (card.name !== 'kyb') expect(manifest.approvals, card.name).toBe('never');
    }
  });

  it('every write of a trigger-driven package is pinned or named by a rule', async () => {
    const inbound = await details('inbound-lead');
    expect(inbound.manifest.mcp?.find((e) => e.server === 'slack')?.pin).toEqual({
      slack_send_message: { channel_id: '${parameters.slack_channel}' },
    });
    expect(inbound.rules.find((rule) => rule.file === 'record-writes.md')?.body).toContain(
      'Write only to the one contact',
    );
    expect(inbound.manifest.triggers).toEqual([
      {
        name: 'new-lead',
        type: 'webhook',
        events: ['lead.submitted'],
        max_concurrent: 3,
        target: {
          type: 'start_run',
          input: 'A lead was submitted. Research it, score it against the ICP and route it.',
        },
      },
    ]);
    const review = await details('code-review');
    expect(review.manifest.mcp?.[0]?.pin).toEqual({ submit_pending_pull_request_review: { event: 'COMMENT' } });
    const notes = await details('release-notes');
    expect(notes.manifest.mcp?.[0]?.pin?.create_issue).toEqual({
      owner: '${parameters.owner}',
      repo: '${parameters.repo}',
      assignees: null,
      milestone: null,
    });
    const kyb = await details('kyb');
    expect(kyb.manifest.mcp).toBeUndefined();
  });
});

describe('apply preview of market-monitor', () => {
  const machine = { savedMcpServers: ['slack', 'gmail'], savedSecrets: [], canKeepSecrets: true, now: NOW };

  it('pins slack_send_message channel_id to the channel given', async () => {
    const preview = previewApply(
      await details('market-monitor'),
      { parameters: { companies: 'Acme', channel: 'C0123ABCD' }, grants: ['mcp:slack/slack_send_message'] },
      machine,
    );
    expect(preview.blockers).toEqual([]);
    expect(preview.canApply).toBe(true);
    const slack = preview.mcp.find((entry) => entry.server === 'slack')?.tools[0];
    expect(slack).toEqual({
      name: 'slack_send_message',
      gateName: 'mcp:slack/slack_send_message',
      asks: 'ask',
      setting: 'allow',
      pin: { channel_id: 'C0123ABCD' },
      pinnedBy: ['channel'],
      pinText: '`slack_send_message` can post only to channel_id `C0123ABCD`',
    });
    const gmail = preview.mcp.find((entry) => entry.server === 'gmail')?.tools[0];
    expect(gmail?.setting).toBe('ask');
    expect(gmail?.pin).toEqual({ recipient_email: 'C0123ABCD', cc: null, bcc: null, extra_recipients: null });
    expect(gmail?.pinText).toBe(
      '`GMAIL_SEND_EMAIL` can post only to recipient_email `C0123ABCD`, with cc, bcc and extra_recipients left out',
    );
    expect(preview.displayName).toBe('Market monitor: Acme');
    expect(preview.triggers[0]).toMatchObject({
      name: 'weekly',
      type: 'schedule',
      cron: '0 8 * * 1',
      timezone: 'UTC',
      next: ['2026-05-11T08:00:00.000Z', '2026-05-18T08:00:00.000Z', '2026-05-25T08:00:00.000Z'],
      input: "Write this week's digest for Acme and send it to C0123ABCD.",
    });
    expect(preview.triggers[0]?.words).toContain('08:00');
  });

  it('with no channel, each tool pinned to it is deny with a pins warning naming the parameter', async () => {
    const preview = previewApply(
      await details('market-monitor'),
      { parameters: { companies: 'Acme' }, grants: ['mcp:slack/slack_send_message'] },
      machine,
    );
    expect(preview.canApply).toBe(true);
    expect(preview.mcp.flatMap((entry) => entry.tools.map((tool) => [tool.gateName, tool.setting, tool.pin]))).toEqual([
      ['mcp:slack/slack_send_message', 'deny', null],
      ['mcp:gmail/GMAIL_SEND_EMAIL', 'deny', null],
    ]);
    expect(preview.warnings).toEqual([
      {
        code: 'pins.mcp:slack/slack_send_message',
        message: '`slack_send_message` is set to deny because its pin needs `channel`: give it to let it run',
      },
      {
        code: 'pins.mcp:gmail/GMAIL_SEND_EMAIL',
        message: '`GMAIL_SEND_EMAIL` is set to deny because its pin needs `channel`: give it to let it run',
      },
    ]);
    expect(preview.instructions).toContain('Destination:  (empty means');
  });

  it('a channel that is not a channel id or an address blocks under parameters.channel', async () => {
    const preview = previewApply(
      await details('market-monitor'),
      { parameters: { companies: 'Acme', channel: '#general' }, grants: [] },
      machine,
    );
    expect(preview.blockers).toEqual([
      {
        code: 'apply.parameter',
        path: 'parameters.channel',
        message: expect.stringContaining(
          'Not in the expected form: Where the digest goes, a Slack channel ID like C0123ABCD',
        ),
      },
    ]);
    expect(preview.canApply).toBe(false);
  });

  it('an unsaved optional server is skipped with an mcp warning', async () => {
    const preview = previewApply(
      await details('market-monitor'),
      { parameters: { companies: 'Acme', channel: 'team@example.com' }, grants: [] },
      { ...machine, savedMcpServers: ['gmail'] },
    );
    expect(preview.canApply).toBe(true);
    expect(preview.mcp[0]).toMatchObject({ server: 'slack', saved: false, required: false });
    expect(preview.warnings).toEqual([
      {
        code: 'mcp.slack',
        message: 'No MCP server `slack` is saved in Settings → MCP servers: its tools are skipped (slack_send_message)',
      },
    ]);
  });
});
