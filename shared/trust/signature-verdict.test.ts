import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeWithMinisign, minisignKeyPair, minisignSign } from '../../test/helpers/minisign-tool';
import { trustedCommentWords } from './signature-verdict';

describe('trustedCommentWords: a signed comment in words', () => {
  it("minisign's default comment: the time as a UTC date, the file by name, `hashed` left out", () => {
    expect(trustedCommentWords('timestamp:1796175550\tfile:invoices-1.2.0.apo\thashed')).toBe(
      'signed 2026-12-02 01:39 UTC, for the file invoices-1.2.0.apo',
    );
    expect(trustedCommentWords('timestamp:0')).toBe('signed 1970-01-01 00:00 UTC');
  });

  it("a publisher's own comment, or one that only looks like the default, is shown as written", () => {
    expect(trustedCommentWords('invoices 1.2.0, released 2026-01-01')).toBe('invoices 1.2.0, released 2026-01-01');
    expect(trustedCommentWords('file:x.apo\thashed')).toBe('file:x.apo\thashed');
    expect(trustedCommentWords('timestamp:soon\tfile:x.apo')).toBe('timestamp:soon\tfile:x.apo');
    expect(trustedCommentWords(null)).toBe('(none)');
    expect(trustedCommentWords('  ')).toBe('(none)');
  });
});

describeWithMinisign("trustedCommentWords on minisign's own default comment", () => {
  it('says the comment minisign writes when no -t is given in words', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apollia-comment-'));
    const file = join(dir, 'invoices-1.2.0.apo');
    writeFileSync(file, 'bytes');
    const signature = minisignSign(minisignKeyPair(dir, 'publisher'), file, {});
    const comment = /^trusted comment: (.*)$/m.exec(signature)?.[1] ?? '';
    expect(comment).toMatch(/^timestamp:\d+\tfile:invoices-1\.2\.0\.apo\thashed$/);
    expect(trustedCommentWords(comment)).toMatch(
      /^signed \d{4}-\d\d-\d\d \d\d:\d\d UTC, for the file invoices-1\.2\.0\.apo$/,
    );
  });
});
