/**
 * The layering lint (biome.json) refuses each import that runs back up a floor: `shared/` importing
 * from `electron/`, `electron/core/` importing `electron/main/`, and `electron` itself in core.
 * Each probe is linted with the project's own configuration in a scratch copy of the layout, and a
 * harmless file beside it passes, so the rule is shown to bite and not to bite everything.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('..', import.meta.url).pathname;
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

function lint(files: Record<string, string>, target: string): { code: number; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'apollia-layering-'));
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  config.vcs = { enabled: false };
  delete config.$schema;
  writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  try {
    return { code: 0, output: execFileSync(BIOME, ['lint', target], { cwd: dir, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describe('the layering lint', () => {
  it('refuses shared/ importing electron/core/', () => {
    const run = lint(
      { 'shared/probe.ts': "import { x } from '../electron/core/errors/index';\nexport const y = x;\n" },
      'shared/probe.ts',
    );
    expect([run.code, run.output]).toEqual([1, expect.stringContaining('shared/ is the lowest floor')]);
  });

  it('refuses electron/core/ importing electron/main/', () => {
    const run = lint(
      { 'electron/core/probe.ts': "import { x } from '../main/index';\nexport const y = x;\n" },
      'electron/core/probe.ts',
    );
    expect([run.code, run.output]).toEqual([1, expect.stringContaining('no import runs back up a floor')]);
  });

  it('refuses electron in electron/core/', () => {
    const run = lint(
      { 'electron/core/probe.ts': "import { app } from 'electron';\nexport const y = app;\n" },
      'electron/core/probe.ts',
    );
    expect([run.code, run.output]).toEqual([1, expect.stringContaining('run without Electron')]);
  });

  it('lets each floor import its own and the floors below', () => {
    const files = {
      'shared/a.ts': 'export const a = 1;\n',
      'electron/core/b.ts': "import { a } from '../../shared/a';\nexport const b = a;\n",
      'electron/main/c.ts': "import { b } from '../core/b';\nexport const c = b;\n",
    };
    expect(lint(files, '.').code).toBe(0);
  });
});
