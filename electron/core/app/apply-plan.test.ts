import { describe, expect, it } from 'vitest';
import { type ApplyPreview, previewApply } from '../../../shared/decisions/apply-preview';
import { NO_POLICY } from '../../../shared/policy/policy';
import type { TemplateDetails, TemplateManifest } from '../../../shared/manifests/template-manifest';
import { emptyState } from '../store/state';
import { type ApplyPlanInput, applyApplyPlan, planApply } from './apply-plan';

const manifest: TemplateManifest = {
  name: 'monitor',
  version: '0.2.0',
  description: 'Watches the market.',
  tools: ['web_search'],
  parameters: { cron: { type: 'string', default: '0 8 * * 1', description: 'When, as cron' } },
  triggers: [
    { name: 'weekly', type: 'schedule', cron: '${parameters.cron}', target: { type: 'start_run', input: 'Go' } },
    { name: 'launch', type: 'at', at: '2027-03-01T09:00:00Z', target: { type: 'start_run' } },
    { name: 'hook', type: 'webhook', target: { type: 'start_run' } },
  ],
};
const details: TemplateDetails = { manifest, body: 'Watch.', skills: [], rules: [], evals: [], files: [] };
const machine = { savedMcpServers: [], savedSecrets: [], canKeepSecrets: true, now: new Date('2026-05-06T12:00:00Z') };
const previewed: ApplyPreview = previewApply(details, { parameters: {}, grants: [] }, machine);

function input(partial: Partial<ApplyPlanInput> = {}): ApplyPlanInput {
  return {
    manifest,
    previewed,
    arm: [],
    policy: null,
    agentId: 'agent-1',
    files: ['instructions.md'],
    requestId: 'r1',
    fingerprint: 'f'.repeat(64),
    at: '2026-05-06T12:00:00.000Z',
    ...partial,
  };
}

describe('planApply', () => {
  it('makes the previewed agent and every trigger unarmed without a tick; one apply event', () => {
    expect(previewed.canApply).toBe(true);
    const plan = planApply(input());
    expect(plan.agent).toMatchObject({
      id: 'agent-1',
      displayName: 'monitor',
      dir: 'agents/agent-1',
      preview: previewed,
    });
    expect(plan.triggers.map((t) => [t.id, t.armed])).toEqual([
      ['agent-1/weekly', false],
      ['agent-1/launch', false],
      ['agent-1/hook', false],
    ]);
    expect(plan.receipt).toEqual({
      agentId: 'agent-1',
      displayName: 'monitor',
      createdAt: '2026-05-06T12:00:00.000Z',
      triggers: ['agent-1/weekly', 'agent-1/launch', 'agent-1/hook'],
      preview: previewed,
    });
    expect(plan.events).toEqual([
      { kind: 'apply', agent: 'agent-1', outcome: 'ok', detail: 'made monitor from the template monitor 0.2.0' },
    ]);
  });

  it('arms only what the person ticked, and says each in an arm event', () => {
    const plan = planApply(input({ arm: ['launch'] }));
    expect(plan.triggers.find((t) => t.name === 'launch')).toMatchObject({
      armed: true,
      armedAt: plan.receipt.createdAt,
    });
    expect(plan.triggers.filter((t) => t.armed)).toHaveLength(1);
    expect(plan.events.map((e) => [e.kind, e.trigger ?? null, e.detail])).toEqual([
      ['apply', null, 'made monitor from the template monitor 0.2.0'],
      ['arm', 'agent-1/launch', 'armed: runs once, at its date'],
    ]);
  });

  it('refuses a tick naming no trigger, a webhook, and a kind the policy does not allow', () => {
    expect(() => planApply(input({ arm: ['daily'] }))).toThrow(
      expect.objectContaining({ code: 'apply.unknown_trigger' }),
    );
    expect(() => planApply(input({ arm: ['hook'] }))).toThrow(
      expect.objectContaining({ code: 'apply.webhook_not_armed_here' }),
    );
    const noSchedules = { ...NO_POLICY, triggers: { ...NO_POLICY.triggers, schedule: false } };
    expect(() => planApply(input({ arm: ['weekly'], policy: noSchedules }))).toThrow(
      expect.objectContaining({ code: 'policy.trigger_kind' }),
    );
  });

  it('refuses a preview with a blocker, naming the first', () => {
    const blocked = previewApply(details, { parameters: { cron: 'not cron' }, grants: [] }, machine);
    expect(blocked.canApply).toBe(false);
    expect(() => planApply(input({ previewed: blocked }))).toThrow(
      expect.objectContaining({
        code: 'apply.blocked',
        message: expect.stringContaining(blocked.blockers[0]?.message ?? '?'),
      }),
    );
  });
});

describe('applyApplyPlan', () => {
  it('writes the agent, its triggers and the receipt with its fingerprint under the request id', () => {
    const state = emptyState();
    const plan = planApply(input({ arm: ['weekly'] }));
    applyApplyPlan(state, plan, 'r1');
    expect(Object.keys(state.agents)).toEqual(['agent-1']);
    expect(Object.keys(state.triggers)).toEqual(['agent-1/weekly', 'agent-1/launch', 'agent-1/hook']);
    expect(state.triggers['agent-1/weekly']?.armed).toBe(true);
    expect(state.applies.r1).toEqual({ ...plan.receipt, fingerprint: 'f'.repeat(64) });
  });
});
