/**
 * One MCP server name for the template check and Settings (STYLE.md "One home for each rule"): a
 * template naming a server inspects clean only when Settings can save a server under that name, so
 * a template never passes inspection and then waits for a server nobody can save.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deniedToolProblem } from '../../../shared/manifests/owner-tools';
import { testApi } from '../../../test/helpers/test-api';
import { inspectTemplate } from '../template';
import { writeTemplate } from '../../../test/helpers/template-folders';

async function templateAccepts(server: string): Promise<boolean> {
  const result = await inspectTemplate(writeTemplate((m) => (m.mcp[0].server = server)));
  return !result.errors.some((e) => e.path === 'mcp[0].server');
}

describe('an MCP server name means one thing', () => {
  it('refuses `Slack` in a template: Settings can never save a server under it', async () => {
    const { api } = testApi();
    const saved = await api.saveMcpServer({
      name: 'Slack',
      transport: 'streamable-http',
      url: 'https://mcp.example.com/',
    });
    expect(saved.ok).toBe(false);
    const result = await inspectTemplate(writeTemplate((m) => (m.mcp[0].server = 'Slack')));
    expect(result.ok).toBe(false);
    expect(result.errors[0]).toMatchObject({
      code: 'template.invalid_field',
      path: 'mcp[0].server',
      message: expect.stringContaining("a saved MCP server's name (lower-case letters, digits, _ and -, at most 64)"),
    });
  });

  it('the template check, the Api and the owner-tools list accept the same names', async () => {
    const { api } = testApi();
    const names = fc.oneof(
      fc.constantFrom('slack', 'Slack', 'git_hub-2', 'a'.repeat(64), 'a'.repeat(65), 'a/b', 'a:b', 'a.b', 'ü'),
      fc.stringMatching(/^[A-Za-z0-9_.:/-]{1,70}$/),
    );
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const saved = await api.saveMcpServer({ name, transport: 'streamable-http', url: 'https://mcp.example.com/' });
        expect(await templateAccepts(name)).toBe(saved.ok);
        expect(deniedToolProblem(`mcp:${name}/send`) === null).toBe(saved.ok);
      }),
      { numRuns: 40 },
    );
  });
});
