/**
 * The signature check riding on the archive reader's single read (`readApoArchive`'s `onBytes`):
 * the bytes that are hashed with SHA-256 and inspected are the bytes the signature is checked over.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { readApoArchive } from '../archive/index';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import {
  describeWithMinisign,
  minisignKeyPair,
  minisignSign,
  type MinisignKeyPair,
} from '../../../test/helpers/minisign-tool';
import { SIGNATURE_ERROR } from './minisign';
import { readDetachedSignature, startPackageSignatureCheck } from './package-signature';
import { addTrustedKey, type TrustedKey } from './trusted-keys';

describeWithMinisign('signature checked over the archive reader’s read', () => {
  let dir: string;
  let publisher: MinisignKeyPair;
  let trusted: TrustedKey[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'archive-signature-'));
    publisher = minisignKeyPair(dir, 'publisher');
    const added = addTrustedKey([], publisher.publicKeyText, 'Example Accounting', new Date());
    if (!added.ok) throw new Error(added.error.message);
    trusted = added.keys;
  });

  async function inspectSigned(path: string) {
    const started = startPackageSignatureCheck(await readDetachedSignature(path), trusted);
    if (!started.ok) throw new Error(started.error.message);
    let seen = 0;
    const read = await readApoArchive(path, {
      onBytes: (chunk) => {
        seen += chunk.length;
        started.check.onBytes(chunk);
      },
    });
    return { read, seen, outcome: started.check.finish() };
  }

  for (const gzip of [true, false]) {
    for (const legacy of [false, true]) {
      it(`${gzip ? 'gzip' : 'plain tar'}, ${legacy ? 'legacy Ed' : 'ED'}: verified over every byte the reader hashed`, async () => {
        const path = join(dir, `invoices-${gzip}-${legacy}.apo`);
        writeFileSync(path, packFolder(INVOICES_DIR, { gzip }));
        minisignSign(publisher, path, { trustedComment: 'invoices 1.2.0', legacy });
        const { read, seen, outcome } = await inspectSigned(path);
        expect(read.ok).toBe(true);
        expect(seen).toBe(statSync(path).size);
        expect(outcome).toEqual({
          ok: true,
          value: {
            state: 'verified',
            keyId: publisher.printedKeyId,
            keyName: 'Example Accounting',
            publicKey: expect.stringMatching(/^RW/),
            algorithm: legacy ? 'Ed' : 'ED',
            trustedComment: 'invoices 1.2.0',
          },
        });
      });
    }
  }

  // The reader reuses its read buffers: a file of several read chunks (512 KiB each) shows that
  // every chunk reaches the signature check and the SHA-256 whole, before its buffer is refilled.
  for (const gzip of [true, false]) {
    for (const legacy of [false, true]) {
      it(`${gzip ? 'gzip' : 'plain tar'}, ${legacy ? 'legacy Ed' : 'ED'}, 3 MiB over several read chunks: verified`, async () => {
        const folder = join(dir, `large-${gzip}-${legacy}`);
        cpSync(INVOICES_DIR, folder, { recursive: true });
        writeFileSync(join(folder, 'data.bin'), randomBytes(3 * 1024 * 1024));
        const path = join(dir, `large-${gzip}-${legacy}.apo`);
        const bytes = packFolder(folder, { gzip });
        writeFileSync(path, bytes);
        minisignSign(publisher, path, { trustedComment: 'large 1.0.0', legacy });
        const { read, seen, outcome } = await inspectSigned(path);
        if (!read.ok) throw new Error(read.error.message);
        expect(read.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
        expect(seen).toBe(bytes.length);
        expect(outcome).toMatchObject({ ok: true, value: { state: 'verified', algorithm: legacy ? 'Ed' : 'ED' } });
      });
    }
  }

  it('a package rebuilt after signing reads fine but its signature is invalid', async () => {
    const path = join(dir, 'rebuilt.apo');
    writeFileSync(path, packFolder(INVOICES_DIR, { gzip: true }));
    minisignSign(publisher, path, { trustedComment: 'invoices 1.2.0' });
    writeFileSync(path, packFolder(INVOICES_DIR, { gzip: false }));
    const { read, outcome } = await inspectSigned(path);
    expect(read.ok).toBe(true);
    expect(outcome).toMatchObject({ ok: false, error: { code: SIGNATURE_ERROR.invalid } });
  });
});
