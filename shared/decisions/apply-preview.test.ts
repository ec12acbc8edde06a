import { describe, expect, it } from 'vitest';
import type { ApplyMachine } from './apply-context';
import { checkParameter } from './apply-parameters';
import { previewApply } from './apply-preview';
import type { TemplateDetails, TemplateManifest } from '../manifests/template-manifest';

const NOW = new Date('2026-05-06T12:00:00Z');

function template(manifest: Partial<TemplateManifest> = {}, body = 'Post to ${parameters.channel}.'): TemplateDetails {
  return {
    manifest: {
      name: 'demo',
      version: '0.1.0',
      description: 'A demo.',
      tools: ['web_search', 'web_fetch'],
      mcp: [
        {
          server: 'github',
          tools: ['get_pull_request', 'submit_review'],
          required: true,
          allow: ['get_pull_request'],
          pin: { submit_review: { event: [null, 'COMMENT'] } },
        },
        {
          server: 'slack',
          tools: ['slack_send_message'],
          pin: { slack_send_message: { channel_id: '${parameters.channel}' } },
        },
      ],
      parameters: {
        channel: { type: 'string', pattern: '^C[A-Z0-9]{8}$', description: 'A Slack channel ID like C0123ABCD' },
        depth: { type: 'integer', default: 2, description: 'Pages per company' },
        cron: { type: 'string', default: '0 8 * * 1', description: 'When, as cron' },
      },
      triggers: [
        {
          name: 'weekly',
          type: 'schedule',
          cron: '${parameters.cron}',
          timezone: 'Europe/Paris',
          target: { type: 'start_run', input: 'Depth ${parameters.depth}' },
        },
        { name: 'launch', type: 'at', at: '2027-03-01T09:00:00Z', target: { type: 'start_run' } },
        { name: 'hook', type: 'webhook', events: ['lead.submitted'], max_concurrent: 3, target: { type: 'start_run' } },
      ],
      secrets: ['PARALLEL_API_KEY'],
      ...manifest,
    },
    body,
    skills: [],
    rules: [],
    evals: [],
    files: [],
  };
}

const MACHINE: ApplyMachine = {
  savedMcpServers: ['github', 'slack'],
  savedSecrets: ['PARALLEL_API_KEY'],
  canKeepSecrets: true,
  now: NOW,
};
const GOOD = { parameters: { channel: 'C0123ABCD' }, grants: ['mcp:github/submit_review'] };

describe('previewApply', () => {
  it('fills everything and can apply', () => {
    const preview = previewApply(template(), GOOD, MACHINE);
    expect(preview.blockers).toEqual([]);
    expect(preview.canApply).toBe(true);
    expect(preview.displayName).toBe('demo');
    expect(preview.instructions).toBe('Post to C0123ABCD.');
    expect(preview.parameters).toEqual({
      channel: { value: 'C0123ABCD' },
      depth: { value: 2 },
      cron: { value: '0 8 * * 1' },
    });
    expect(preview.tools).toEqual(['web_search', 'web_fetch']);
    expect(preview.mcp[0]?.tools).toEqual([
      { name: 'get_pull_request', gateName: 'mcp:github/get_pull_request', asks: 'allow', setting: 'ask', pin: null },
      {
        name: 'submit_review',
        gateName: 'mcp:github/submit_review',
        asks: 'ask',
        setting: 'allow',
        pin: { event: [null, 'COMMENT'] },
        pinText: '`submit_review` can run only with event left out or `COMMENT`',
      },
    ]);
    expect(preview.triggers.map((t) => [t.name, t.next.length, t.input])).toEqual([
      ['weekly', 3, 'Depth 2'],
      ['launch', 1, null],
      ['hook', 0, null],
    ]);
    expect(preview.triggers[0]).toMatchObject({
      cron: '0 8 * * 1',
      timezone: 'Europe/Paris',
      next: ['2026-05-11T06:00:00.000Z', '2026-05-18T06:00:00.000Z', '2026-05-25T06:00:00.000Z'],
    });
    expect(preview.triggers[2]).toMatchObject({ events: ['lead.submitted'], max_concurrent: 3 });
  });

  it('a missing required MCP server blocks, naming Settings → MCP servers', () => {
    const preview = previewApply(template(), GOOD, { ...MACHINE, savedMcpServers: ['slack'] });
    expect(preview.canApply).toBe(false);
    expect(preview.blockers).toEqual([
      {
        code: 'apply.mcp_server_missing',
        path: 'mcp[0]',
        message: 'demo needs the MCP server `github`: save it in Settings → MCP servers first',
      },
    ]);
  });

  it('a past at date blocks under triggers.<i>', () => {
    const preview = previewApply(template(), GOOD, { ...MACHINE, now: new Date('2027-03-02T00:00:00Z') });
    expect(preview.blockers).toEqual([
      {
        code: 'apply.trigger_at_past',
        path: 'triggers.1',
        message: 'Trigger `launch`: 2027-03-01T09:00:00Z has passed',
      },
    ]);
    expect(preview.triggers[1]?.error).toBe('2027-03-01T09:00:00Z has passed');
  });

  it('grants outside the package tools are refused per field', () => {
    const preview = previewApply(
      template(),
      {
        parameters: { channel: 'C0123ABCD' },
        grants: ['mcp:github/submit_review', 'mcp:github/merge_pull_request', 'shell'],
      },
      MACHINE,
    );
    expect(preview.blockers).toEqual([
      {
        code: 'apply.grant_unknown',
        path: 'grants[1]',
        message:
          "`mcp:github/merge_pull_request` is not one of demo's MCP tools (a grant names one as mcp:<server>/<tool>)",
      },
      {
        code: 'apply.grant_unknown',
        path: 'grants[2]',
        message: "`shell` is not one of demo's MCP tools (a grant names one as mcp:<server>/<tool>)",
      },
    ]);
  });

  it('a missing secret blocks', () => {
    const preview = previewApply(template(), GOOD, { ...MACHINE, savedSecrets: [] });
    expect(preview.blockers).toEqual([
      {
        code: 'apply.secret_missing',
        path: 'secrets[0]',
        message: 'demo needs the secret `PARALLEL_API_KEY`: save it in Settings first',
      },
    ]);
  });

  it('a webhook trigger with no way to keep its secret blocks', () => {
    const preview = previewApply(template(), GOOD, { ...MACHINE, canKeepSecrets: false });
    expect(preview.blockers).toEqual([
      {
        code: 'apply.webhook_no_secret_store',
        path: 'triggers.2',
        message: 'Trigger `hook`: a webhook needs a signing secret, and this machine has no keychain to keep one',
      },
    ]);
  });

  it('the seal key (409) is checked before the triggers (422), as the spec orders them', () => {
    // triggers[0] has a bad cron, triggers[2] is a webhook this machine cannot keep a secret for.
    const preview = previewApply(
      template(),
      { ...GOOD, parameters: { channel: 'C0123ABCD', cron: '0 8 * *' } },
      { ...MACHINE, canKeepSecrets: false },
    );
    expect(preview.blockers.map((b) => [b.code, b.path])).toEqual([
      ['apply.webhook_no_secret_store', 'triggers.2'],
      ['apply.trigger_cron', 'triggers.0'],
    ]);
    expect(preview.triggers[2]?.error).toBe(
      'a webhook needs a signing secret, and this machine has no keychain to keep one',
    );
  });

  it("the agent's body is held to POST /v2/agents' 1 MiB (413), measured with the values given, its instructions never built", () => {
    const defs = { ...template().manifest.parameters, notes: { type: 'string' as const, description: 'Free notes' } };
    const body = `Post to \${parameters.channel}. ${'${parameters.notes} '.repeat(20)}`;
    const short = previewApply(
      template({ parameters: defs }, body),
      { ...GOOD, parameters: { channel: 'C0123ABCD', notes: 'n'.repeat(50_000) } },
      MACHINE,
    );
    expect(short.blockers).toEqual([]);
    expect(short.instructions.length).toBeGreaterThan(1_000_000);
    const long = previewApply(
      template({ parameters: defs }, body),
      { ...GOOD, parameters: { channel: 'C0123ABCD', notes: 'n'.repeat(60_000) } },
      MACHINE,
    );
    expect(long.canApply).toBe(false);
    expect(long.blockers).toEqual([
      {
        code: 'apply.agent_too_large',
        path: 'body',
        message: expect.stringMatching(
          /^demo: the agent this apply makes would be 1,20\d,\d\d\d bytes as `POST \/v2\/agents` receives it .* over its 1 MiB limit of 1,048,576 bytes \(`413`\): give shorter parameters$/,
        ),
      },
    ]);
    expect(long.instructions).toBe('');
  });

  it("counts the agent's files the check measured, and a pin's filled text", () => {
    const files = { ...template(), agentFilesJsonBytes: 1_048_500 };
    expect(previewApply(files, GOOD, MACHINE).blockers.map((b) => b.code)).toEqual(['apply.agent_too_large']);
    const pinned = template({
      parameters: { channel: { type: 'string', description: 'Anything' } },
      triggers: [],
      mcp: [
        {
          server: 'slack',
          tools: ['slack_send_message'],
          pin: { slack_send_message: { channel_id: '${parameters.channel}'.repeat(20) } },
        },
      ],
    });
    const preview = previewApply(pinned, { parameters: { channel: 'c'.repeat(60_000) }, grants: [] }, MACHINE);
    expect(preview.blockers.map((b) => b.code)).toEqual(['apply.agent_too_large']);
    expect(preview.mcp[0]?.tools[0]).toMatchObject({ setting: 'deny', pin: null });
  });

  it('says, for a pinned parameter whose pattern is unanchored, that any value containing a match passes', () => {
    const loose = template({
      parameters: {
        ...template().manifest.parameters,
        channel: { type: 'string', pattern: 'C[A-Z0-9]{8}', description: 'A Slack channel ID' },
      },
    });
    const preview = previewApply(loose, { ...GOOD, parameters: { channel: 'xC0123ABCDy' } }, MACHINE);
    expect(preview.blockers).toEqual([]);
    expect(preview.warnings).toEqual([
      {
        code: 'pattern.channel',
        path: 'parameters.channel',
        message:
          '`channel` is checked by the pattern `C[A-Z0-9]{8}`, which is not anchored (no ^ … $): any value that contains a match passes, and `slack_send_message` will be pinned to the whole value you give. Check it is exactly the destination you mean',
      },
    ]);
    expect(previewApply(template(), GOOD, MACHINE).warnings).toEqual([]);
  });

  it("a trigger's filled text is counted before it is built and held to 1 MiB (a decision)", () => {
    const defs = { ...template().manifest.parameters, notes: { type: 'string' as const, description: 'Free notes' } };
    const triggers = [
      {
        name: 'note',
        type: 'at' as const,
        at: '2027-03-01T09:00:00Z',
        target: { type: 'start_run' as const, input: '${parameters.notes}'.repeat(20) },
      },
    ];
    const preview = previewApply(
      template({ parameters: defs, triggers }),
      { ...GOOD, parameters: { channel: 'C0123ABCD', notes: 'n'.repeat(60_000) } },
      MACHINE,
    );
    expect(preview.blockers).toEqual([
      {
        code: 'apply.trigger_too_large',
        path: 'triggers.0',
        message:
          'Trigger `note`: filled, it would be 1,200,000 bytes, over the 1 MiB limit of 1,048,576 bytes: give shorter parameters',
      },
    ]);
    expect(preview.triggers[0]?.input).toBeNull();
  });

  it('a bad cron after filling blocks under triggers.<i>', () => {
    const preview = previewApply(
      template(),
      { ...GOOD, parameters: { channel: 'C0123ABCD', cron: '0 8 * *' } },
      MACHINE,
    );
    expect(preview.blockers).toEqual([
      {
        code: 'apply.trigger_cron',
        path: 'triggers.0',
        message:
          'Trigger `weekly`: `0 8 * *` is not a 5-field cron expression (minute hour day-of-month month day-of-week)',
      },
    ]);
  });

  it('each parameter error blocks under its own field, and an undeclared one too', () => {
    const preview = previewApply(
      template(),
      { parameters: { channel: 'general', depth: 'two', team: 'x' }, grants: [] },
      MACHINE,
    );
    expect(preview.blockers.map((b) => [b.code, b.path])).toEqual([
      ['apply.parameter', 'parameters.channel'],
      ['apply.parameter', 'parameters.depth'],
      ['apply.unknown_parameter', 'parameters.team'],
    ]);
    expect(preview.parameters.channel).toEqual({
      value: null,
      error: 'Not in the expected form: A Slack channel ID like C0123ABCD',
    });
  });

  it('a placeholder-only pin takes the parameter value and its type', () => {
    const t = template({
      mcp: [
        {
          server: 'github',
          tools: ['list'],
          pin: { list: { per_page: '${parameters.depth}', label: 'depth-${parameters.depth}' } },
        },
      ],
    });
    const preview = previewApply(t, { parameters: { channel: 'C0123ABCD', depth: '5' }, grants: [] }, MACHINE);
    expect(preview.mcp[0]?.tools[0]?.pin).toEqual({ per_page: 5, label: 'depth-5' });
  });

  it('a denied tool stays denied, with a grants warning', () => {
    const preview = previewApply(template(), GOOD, {
      ...MACHINE,
      deniedTools: ['mcp:github/submit_review', 'web_fetch'],
    });
    expect(preview.mcp[0]?.tools[1]).toMatchObject({ setting: 'deny', ownerDenied: true });
    expect(preview.mcp[0]?.tools[0]?.ownerDenied).toBeUndefined();
    expect(preview.tools).toEqual(['web_search']);
    expect(preview.warnings).toEqual([
      {
        code: 'grants.mcp:github/submit_review',
        message:
          'You allowed `submit_review`, but `mcp:github/submit_review` is on your list of tools you never allow (Settings → Tools you never allow): it stays denied',
      },
      {
        code: 'grants.web_fetch',
        message:
          'The template gives its agent `web_fetch`, but it is on your list of tools you never allow (Settings → Tools you never allow): the agent does not get it',
      },
    ]);
  });

  it('a denied MCP tool not granted is denied without a warning (nothing the owner asked for is taken back)', () => {
    const preview = previewApply(
      template(),
      { ...GOOD, grants: [] },
      { ...MACHINE, deniedTools: ['mcp:slack/slack_send_message'] },
    );
    expect(preview.mcp[1]?.tools[0]).toMatchObject({
      setting: 'deny',
      ownerDenied: true,
      pin: { channel_id: 'C0123ABCD' },
    });
    expect(preview.warnings).toEqual([]);
  });
});

describe('checkParameter', () => {
  const channel = {
    type: 'string' as const,
    pattern: '^C[A-Z0-9]{8}$',
    description: 'A Slack channel ID like C0123ABCD',
    required: true,
  };
  it('says what is wrong with the description as the hint', () => {
    expect(checkParameter(channel, '')).toBe('Required: A Slack channel ID like C0123ABCD');
    expect(checkParameter(channel, 'nope')).toBe('Not in the expected form: A Slack channel ID like C0123ABCD');
    expect(checkParameter(channel, 'C0123ABCD')).toBeNull();
    expect(checkParameter({ type: 'integer', description: 'Pages' }, '2.5')).toBe('Must be a whole number: Pages');
    expect(checkParameter({ type: 'boolean', description: 'On' }, 'yes')).toBe('Must be true or false: On');
    expect(checkParameter({ type: 'string', enum: ['a', 'b'], description: 'Pick' }, 'c')).toBe(
      'Must be one of "a", "b"',
    );
  });

  it('reads a number given as text only as JSON writes one: 0x10 is not 16', () => {
    const items = { type: 'integer' as const, description: 'Items' };
    for (const text of ['0x10', '0b11', '0o7', '1_000', '+5', '.5', 'Infinity', '010'])
      expect([text, checkParameter(items, text)]).toEqual([text, 'Must be a whole number: Items']);
    expect(checkParameter({ type: 'number', description: 'Ratio' }, '0x10')).toBe('Must be a number: Ratio');
    for (const text of ['16', ' 16 ', '-3', '1e3', '0'])
      expect([text, checkParameter(items, text)]).toEqual([text, null]);
    expect(checkParameter({ type: 'number', description: 'Ratio' }, '-0.25e-1')).toBeNull();
  });
});
