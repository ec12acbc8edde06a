import { mkdtempSync, rmSync } from 'node:fs';
import { writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { INVOICES_DIR, packFiles } from '../../../test/helpers/pack';
import { runCli } from './dispatcher';
import { terminalJson, terminalSafe } from './terminal-text';

const dir = mkdtempSync(join(tmpdir(), 'apollia-terminal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The spec's example with a publisher that tries to act on the terminal and to read backwards. */
function hostilePackage(): string {
  const manifest = readFileSync(join(INVOICES_DIR, 'apollia.toml'), 'utf8').replace(
    'publisher = "Example Accounting"',
    'publisher = "Ex\\u0430mple \\u202Egnitnuocca\\u001b[2J\\u001b]0;pwned\\u0007"',
  );
  const path = join(dir, 'hostile.apo');
  writeFileSync(
    path,
    packFiles({
      'apollia.toml': manifest,
      'tools/extract.py': readFileSync(join(INVOICES_DIR, 'tools/extract.py'), 'utf8'),
      'workflows/reminders.py': readFileSync(join(INVOICES_DIR, 'workflows/reminders.py'), 'utf8'),
    }),
  );
  return path;
}

async function run(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runCli(args, {
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      out += t;
    },
    cwd: dir,
    env: {},
  });
  return { code, out };
}

describe('terminal output never obeys package text', () => {
  it('shows escape sequences and bidi controls as markers, and warns about them and the lookalike letter', async () => {
    const { code, out } = await run(['inspect', hostilePackage()]);
    expect(code).toBe(0);
    expect(out).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(out).toContain(
      'publisher: Exаmple ⟨U+202E⟩gnitnuocca⟨U+001B⟩[2J⟨U+001B⟩]0;pwned⟨U+0007⟩ (Unverified publisher)',
    );
    expect(out).toContain('Text that could mislead you:');
    expect(out).toMatch(/publisher name contains a right-to-left override \(U\+202E\)/);
    expect(out).toMatch(/publisher name .*(look|Cyrillic)/i);
  });

  it('keeps the exact data in --json, with hidden characters written as \\u escapes', async () => {
    const { out } = await run(['inspect', hostilePackage(), '--json']);
    expect(out).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(out).toContain('\\u202e');
    const parsed = JSON.parse(out) as { summary: { publisher: string } };
    expect(parsed.summary.publisher).toBe('Ex\u0430mple \u202Egnitnuocca\u001b[2J\u001b]0;pwned\u0007');
  });

  it('terminalJson escapes characters beyond the BMP as surrogate pairs, and leaves plain text alone', () => {
    expect(JSON.parse(terminalJson({ tag: 'a\u{E0041}b' }))).toEqual({ tag: 'a\u{E0041}b' });
    expect(terminalJson({ tag: 'a\u{E0041}b' })).toContain('\\udb40\\udc41');
    expect(terminalSafe('plain\nlines\tstay')).toBe('plain\nlines\tstay');
  });
});
