import { describe, expect, it } from 'vitest';
import type { TemplateManifest } from '../manifests/template-manifest';
import { templateVerdict } from './template-verdict';

const base: TemplateManifest = { name: 't', version: '0.1.0', description: 'd' } as TemplateManifest;
const made = (over: Partial<TemplateManifest>): TemplateManifest => ({ ...base, ...over });

describe('templateVerdict: the worst the agent could do, first', () => {
  it('only reading its own folder is low, and says it uses none of your accounts', () => {
    expect(templateVerdict(made({ tools: ['read', 'ls'] }))).toEqual({
      level: 'low',
      headline: 'Only reads its own work folder',
      facts: ['Its tools only read its own work folder; it uses none of your accounts.'],
    });
  });

  it('a shell runs commands: high, whatever else', () => {
    const verdict = templateVerdict(made({ tools: ['shell', 'web_fetch'] }));
    expect([verdict.level, verdict.headline, verdict.facts[0]]).toEqual([
      'high',
      'Can run commands and send your data out',
      'Its agent may use shell, which runs any command in its box.',
    ]);
  });

  it('sending in your name unattended is high; asked first it needs care; pins are named', () => {
    const mcp = [{ server: 'slack', tools: ['slack_send_message'], pin: { slack_send_message: { channel_id: 'C1' } } }];
    const unattended = templateVerdict(
      made({
        mcp,
        approvals: 'never',
        triggers: [
          { name: 'w', type: 'schedule', cron: '0 8 * * 1', target: { type: 'start_run' } },
        ] as TemplateManifest['triggers'],
      }),
    );
    expect(unattended).toEqual({
      level: 'high',
      headline: 'Can send or post in your name, on its own',
      facts: [
        'Sends through your saved MCP servers: slack_send_message (slack): each only where its pin says.',
        'The template recommends running unattended: its tools would run, started by its trigger, without asking you.',
      ],
    });
    const asked = templateVerdict(made({ mcp: [{ server: 'slack', tools: ['slack_send_message'] }] }));
    expect([asked.level, asked.headline, asked.facts]).toEqual([
      'care',
      'Can send or post in your name',
      ['Sends through your saved MCP servers: slack_send_message (slack): it chooses where.'],
    ]);
  });

  it('reading an account and reaching the internet add up to a leak: high', () => {
    const verdict = templateVerdict(
      made({
        tools: ['web_fetch'],
        mcp: [
          { server: 'github', tools: ['get_file_contents'] },
          { server: 'slack', tools: ['slack_send_message'] },
        ],
      }),
    );
    expect(verdict.level).toBe('high');
    expect(verdict.facts).toContain(
      'Reads your github account and can reach the internet (web_fetch): together they could leak what it reads.',
    );
  });

  it('reads a tool by the first verb in its name, not by a word further on', () => {
    expect(
      templateVerdict(made({ mcp: [{ server: 'slack', tools: ['get_message', 'list_messages'] }] })).headline,
    ).toBe('Can read your accounts');
    expect(
      templateVerdict(made({ mcp: [{ server: 'hubspot', tools: ['hubspot-batch-update-objects'] }] })).headline,
    ).toBe('Can change things in your accounts');
    expect(templateVerdict(made({ mcp: [{ server: 'gmail', tools: ['GMAIL_SEND_EMAIL'] }] })).headline).toBe(
      'Can send or post in your name',
    );
  });

  it('a tool whose name says nothing counts as one that changes things', () => {
    expect(templateVerdict(made({ mcp: [{ server: 'crm', tools: ['frobnicate'] }] })).headline).toBe(
      'Can change things in your accounts',
    );
  });
});
