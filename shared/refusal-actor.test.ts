import { describe, expect, it } from 'vitest';
import { inspectCommand, packCommand, refusalAdvice } from './refusal-actor';

describe('refusalAdvice', () => {
  it('a truncated download, a file that is not a package and an old app are the person’s to fix', () => {
    expect(refusalAdvice('archive.truncated')).toEqual({ actor: 'user', title: 'You can fix this', action: 'The file ends too early: the download was cut short. Download the package again.' });
    expect(refusalAdvice('archive.not_archive').action).toBe('This file is not an Apollia package (.apo). Open the .apo file itself.');
    expect(refusalAdvice('manifest.sdk_unsupported').action).toBe('This package needs a newer Apollia Desktop. Update the app, then open the package again.');
  });

  it('links out of the package, traversal and a hidden tool may be malicious', () => {
    for (const code of ['archive.symlink', 'archive.hardlink', 'archive.traversal', 'archive.absolute_path', 'manifest.undescribed_function']) {
      expect(refusalAdvice(code), code).toMatchObject({ actor: 'malicious', title: "Don't install this" });
    }
    expect(refusalAdvice('archive.symlink').action).toContain('Move the file to the Trash.');
  });

  it('a broken rule of the format, or a code it does not know, is the author’s', () => {
    for (const code of ['manifest.bad_version', 'manifest.unknown_key', 'archive.no_manifest', 'archive.reserved_name', 'something.new']) {
      expect(refusalAdvice(code), code).toMatchObject({ actor: 'author', title: 'Its author must fix this' });
    }
  });

  it('a prototype key is not a code it knows', () => {
    expect(refusalAdvice('__proto__').actor).toBe('author');
    expect(refusalAdvice('constructor').actor).toBe('author');
  });
});

describe('inspectCommand and packCommand', () => {
  it('quotes a file name only when it needs it', () => {
    expect(inspectCommand('invoices-1.2.0.apo')).toBe('apollia-desktop inspect invoices-1.2.0.apo');
    expect(inspectCommand("it's here.apo")).toBe(`apollia-desktop inspect 'it'\\''s here.apo'`);
    expect(packCommand('my package')).toBe(`apollia-desktop pack 'my package'`);
  });

  it('runs the app’s own command line, never npx of a name (outside the repository npx fetches whoever owns it)', () => {
    const macBinary = `'/Applications/Apollia Desktop.app/Contents/MacOS/Apollia Desktop'`;
    expect(inspectCommand('invoices.apo', macBinary)).toBe(`${macBinary} inspect invoices.apo`);
    expect(packCommand('invoices', 'apollia-desktop')).toBe('apollia-desktop pack invoices');
    expect(inspectCommand('x.apo', null)).toBe('apollia-desktop inspect x.apo');
    for (const command of [inspectCommand('a.apo'), packCommand('a'), inspectCommand('a.apo', null)]) expect(command).not.toMatch(/\bnpx\b/);
  });
});

describe('signature refusals (issue 14)', () => {
  it("a signature that does not match is not to be installed; an unreadable one is the user's; a malformed one the author's", () => {
    expect(refusalAdvice('signature.invalid')).toMatchObject({ actor: 'malicious', title: "Don't install this", action: expect.stringContaining('changed after it was signed') });
    expect(refusalAdvice('signature.unreadable')).toMatchObject({ actor: 'user' });
    expect(refusalAdvice('signature.malformed')).toMatchObject({ actor: 'author' });
  });
});
