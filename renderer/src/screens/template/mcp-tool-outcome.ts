import type { Approvals } from '../../../../shared/decisions/apply-context';
import type { PreviewMcpTool } from '../../../../shared/decisions/apply-preview';
import { approvalsLabel } from '../../../../shared/decisions/approvals-words';

/**
 * What an MCP tool will do after apply, given its switch as it is now (spec "Apply"): skipped when
 * its server is not saved; denied in your Settings when the owner never allows it (spec "Apply"
 * step 2: it stays denied); denied when its pin's parameter is empty (the preview's `deny`,
 * whatever the switch); else it runs without asking exactly when switched on (held
 * by its pin when pinned), and asks first when not. Read from the switch, not only from the preview,
 * which is re-fetched a moment after each change: the badge never contradicts the switch beside it.
 * Under `approvals: ask` an allowed tool still asks first (agent.md `approvals`: the agent "asks its
 * person before a tool runs"), and the badge says so.
 */
export function mcpToolOutcome(
  tool: PreviewMcpTool,
  saved: boolean,
  granted: boolean,
  approvals: Approvals,
): { badge: 'allow' | 'ask' | 'deny' | 'neutral'; words: string } {
  if (!saved) return { badge: 'neutral', words: 'Skipped: no server saved' };
  if (tool.ownerDenied) return { badge: 'deny', words: 'Denied in your Settings' };
  if (tool.setting === 'deny') return { badge: 'deny', words: 'Will be denied' };
  if (granted && approvals === 'ask')
    return { badge: 'ask', words: `Allowed, but asks you first (you chose “${approvalsLabel('ask')}”)` };
  if (granted)
    return { badge: 'allow', words: tool.pin ? 'Runs without asking, held by its pin' : 'Runs without asking' };
  return { badge: 'ask', words: 'Asks you first' };
}
