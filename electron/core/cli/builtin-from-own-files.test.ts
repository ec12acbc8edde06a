/**
 * "Built in" is the app's own shipped folder, found from the program's own files (DESIGN.md "Managed policy": nothing
 * that decides what is trusted or built in comes from the environment or the current folder): `APOLLIA_RESOURCES`
 * does not make the person's folder built in under `templates: "builtin"`.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { runCliCaptured } from '../../../test/helpers/cli-run';
import { cliResourcesDir } from './cli-data';
import type { CliIo } from './cli-io';
import { builtinTemplateNames, templateArgument } from './template-name';

const SHIPPED = new URL('../../../resources', import.meta.url).pathname;

describe('the built-in templates folder', () => {
  it('is found from the CLI’s own files, whatever APOLLIA_RESOURCES says', async () => {
    const mine = tempDir('apollia-my-resources-');
    mkdirSync(join(mine, 'templates'), { recursive: true });
    cpSync(join(SHIPPED, 'templates', 'market-monitor'), join(mine, 'templates', 'market-monitor'), {
      recursive: true,
    });
    const policy = join(tempDir('apollia-builtin-policy-'), 'policy.json');
    writeFileSync(policy, JSON.stringify({ version: 1, templates: 'builtin' }));
    const env = { HOME: '/home/someone', APOLLIA_POLICY_FILE: policy, APOLLIA_RESOURCES: mine };
    expect(cliResourcesDir({})).toBe(SHIPPED.replace(/\/$/, ''));
    const own = JSON.parse(
      (await runCliCaptured(['inspect', join(mine, 'templates', 'market-monitor'), '--json'], { env })).stdout,
    );
    expect(own.policy.refusals.map((r: { code: string }) => r.code)).toEqual(['policy.templates']);
    const shipped = JSON.parse(
      (await runCliCaptured(['inspect', join(SHIPPED, 'templates', 'market-monitor'), '--json'], { env })).stdout,
    );
    expect(shipped.policy.outcome).toBe('allowed');
  });

  it('a bare built-in name means the shipped template, whatever the environment names (no key of it is read)', () => {
    const mine = tempDir('apollia-my-resources-');
    const io = { cwd: mine, env: { resourcesDir: mine, APOLLIA_RESOURCES: mine } } as unknown as CliIo;
    const argument = templateArgument(io, 'market-monitor');
    expect(argument).toMatchObject({
      kind: 'builtin',
      path: join(SHIPPED.replace(/\/$/, ''), 'templates', 'market-monitor'),
    });
    expect(builtinTemplateNames(io)).toContain('market-monitor');
  });
});
