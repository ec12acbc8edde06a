import { describe, expect, it } from 'vitest';
import type { PreviewMcpTool } from '../../../../shared/decisions/apply-preview';
import { mcpToolOutcome } from './mcp-tool-outcome';

const tool = (over: Partial<PreviewMcpTool>): PreviewMcpTool => ({
  name: 'slack_send_message',
  gateName: 'mcp:slack/slack_send_message',
  asks: 'ask',
  setting: 'ask',
  pin: null,
  ...over,
});

describe('the badge of an MCP tool says what it will do after apply, given its switch', () => {
  it('switched on: runs without asking, even before the preview catches up (its setting still ask)', () => {
    expect(mcpToolOutcome(tool({ setting: 'ask' }), true, true, 'never')).toEqual({
      badge: 'allow',
      words: 'Runs without asking',
    });
    expect(mcpToolOutcome(tool({ setting: 'allow' }), true, true, 'never')).toEqual({
      badge: 'allow',
      words: 'Runs without asking',
    });
  });

  it('switched on and pinned: held by its pin', () => {
    expect(mcpToolOutcome(tool({ pin: { channel_id: 'C0123ABCD' } }), true, true, 'never')).toEqual({
      badge: 'allow',
      words: 'Runs without asking, held by its pin',
    });
  });

  it('switched off: asks first, even while the preview still says allow', () => {
    expect(mcpToolOutcome(tool({ setting: 'allow', asks: 'allow' }), true, false, 'never')).toEqual({
      badge: 'ask',
      words: 'Asks you first',
    });
  });

  it("a pin whose parameter is empty (the preview's deny) is denied, switch or not", () => {
    const denied = tool({ setting: 'deny', pinnedBy: ['channel'] });
    expect(mcpToolOutcome(denied, true, true, 'never')).toEqual({ badge: 'deny', words: 'Will be denied' });
    expect(mcpToolOutcome(denied, true, false, 'never')).toEqual({ badge: 'deny', words: 'Will be denied' });
  });

  it('a tool you never allow (Settings) reads "Denied in your Settings", switch or not, even when its pin is also empty', () => {
    const denied = tool({ setting: 'deny', ownerDenied: true, pin: { channel_id: 'C0123ABCD' } });
    expect(mcpToolOutcome(denied, true, true, 'never')).toEqual({ badge: 'deny', words: 'Denied in your Settings' });
    expect(mcpToolOutcome(denied, true, false, 'never')).toEqual({ badge: 'deny', words: 'Denied in your Settings' });
    expect(
      mcpToolOutcome(tool({ setting: 'deny', ownerDenied: true, pinnedBy: ['channel'] }), true, true, 'never'),
    ).toEqual({ badge: 'deny', words: 'Denied in your Settings' });
  });

  it('a server not saved: apply skips the tool', () => {
    expect(mcpToolOutcome(tool({}), false, false, 'never')).toEqual({
      badge: 'neutral',
      words: 'Skipped: no server saved',
    });
  });

  it('switched on while the person chose to be asked before every tool: allowed, but asks first', () => {
    expect(mcpToolOutcome(tool({ setting: 'allow' }), true, true, 'ask')).toEqual({
      badge: 'ask',
      words: 'Allowed, but asks you first (you chose “Ask me before a tool runs”)',
    });
    expect(mcpToolOutcome(tool({ setting: 'deny', ownerDenied: true }), true, true, 'ask')).toEqual({
      badge: 'deny',
      words: 'Denied in your Settings',
    });
  });
});
