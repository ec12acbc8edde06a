import { mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkTemplateFolder } from './walk';
import { writeTemplate } from '../../../test/helpers/template-folders';

/** A folder outside the template with a file the walk must never read. */
function outside(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outside-'));
  writeFileSync(join(dir, 'SKILL.md'), '---\nname: stolen\ndescription: x\n---\nsecret\n');
  writeFileSync(join(dir, 'secret.txt'), 'the private key');
  return dir;
}

describe('walkTemplateFolder: a folder swapped while it is read', () => {
  it('refuses a folder replaced by a link between its lstat and its reading, and reads nothing outside', async () => {
    const dir = writeTemplate();
    const elsewhere = outside();
    const result = await walkTemplateFolder(dir, {
      beforeFolderRead: (rel) => {
        if (rel !== 'skills') return;
        renameSync(join(dir, 'skills'), join(dir, '..', `skills-moved-${Date.now()}`));
        symlinkSync(elsewhere, join(dir, 'skills'));
      },
    });
    expect(result).toEqual({
      ok: false,
      problem: {
        code: 'template.changed',
        path: 'skills',
        message:
          'skills changed while it was read (a folder swapped or replaced by a link): read the template again once it is still',
      },
    });
  });

  it('refuses a folder swapped for another real folder (device and inode checked)', async () => {
    const dir = writeTemplate();
    const result = await walkTemplateFolder(dir, {
      beforeFolderRead: (rel) => {
        if (rel !== 'rules') return;
        renameSync(join(dir, 'rules'), join(dir, '..', `rules-moved-${Date.now()}`));
        mkdirSync(join(dir, 'rules'));
        writeFileSync(join(dir, 'rules', 'planted.md'), '# planted\n');
      },
    });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem.code).toBe('template.changed');
    expect(!result.ok && result.problem.path).toBe('rules');
  });

  it('refuses the template folder itself replaced by a link before it is listed', async () => {
    const dir = writeTemplate();
    const elsewhere = outside();
    const result = await walkTemplateFolder(dir, {
      beforeFolderRead: (rel) => {
        if (rel !== '') return;
        renameSync(dir, `${dir}-moved`);
        symlinkSync(elsewhere, dir);
      },
    });
    expect(!result.ok && result.problem).toMatchObject({ code: 'template.changed', path: '.' });
  });

  it('reads a folder whose parent is swapped after it was opened from the folder it checked, never through the link', async () => {
    const dir = writeTemplate();
    const elsewhere = outside();
    const before = readdirSync(join(dir, 'skills', 'digest'));
    const result = await walkTemplateFolder(dir, {
      beforeFolderRead: (rel) => {
        if (rel !== 'skills/digest' || process.platform !== 'linux') return;
        // The parent `skills` is already open: the walk reaches `digest` through its handle.
        const moved = join(dir, '..', `skills-held-${Date.now()}`);
        renameSync(join(dir, 'skills'), moved);
        symlinkSync(elsewhere, join(dir, 'skills'));
      },
    });
    if (process.platform !== 'linux') return;
    expect(result.ok).toBe(true);
    const read = result.ok ? [...result.tree.files.keys()].filter((path) => path.startsWith('skills/digest/')) : [];
    expect(read.map((path) => path.slice('skills/digest/'.length)).sort()).toEqual(before.sort());
    expect(
      result.ok &&
        [...result.tree.files.values()].some((bytes) => Buffer.from(bytes).toString().includes('private key')),
    ).toBe(false);
  });
});
