/**
 * `inspectApo` with a detached signature: the state in
 * `summary.signature` for both minisign algorithms, and every bad signature refused FIRST with its
 * own code, `ok: false` and no state claimed. Keys and signatures are made by the real `minisign`.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import {
  describeWithMinisign,
  type MinisignKeyPair,
  minisignKeyPair,
  minisignSign,
} from '../../../test/helpers/minisign-tool';
import { INVOICES_DIR, packFolder } from '../../../test/helpers/pack';
import { tempDir } from '../../../test/helpers/test-api';
import { addTrustedKey, type TrustedKey } from '../trust/index';
import { inspectApo } from './index';

describeWithMinisign('inspectApo and the package signature', () => {
  let dir: string;
  let publisher: MinisignKeyPair;
  let trusted: TrustedKey[];
  let n = 0;
  /** A fresh signed copy of the invoices package; `legacy` signs with `-l` (algorithm `Ed`). */
  const signed = (legacy = false) => {
    const path = join(dir, `p${n++}.apo`);
    writeFileSync(path, packFolder(INVOICES_DIR));
    minisignSign(publisher, path, { trustedComment: 'invoices 1.2.0', legacy });
    return path;
  };
  const firstError = async (path: string) => {
    const inspection = await inspectApo(path, { trustedKeys: trusted });
    expect(inspection.ok).toBe(false);
    // A refused signature is still the verdict `invalid`, with why: never null, never "unsigned".
    expect(inspection.summary?.signature).toMatchObject({
      state: 'invalid',
      message: inspection.errors[0]?.message,
      public_key: null,
    });
    return inspection.errors[0];
  };

  beforeAll(() => {
    dir = tempDir('apollia-inspect-sig-');
    publisher = minisignKeyPair(dir, 'publisher');
    const added = addTrustedKey([], publisher.publicKeyText, 'Example Accounting', new Date('2026-12-01T00:00:00Z'));
    if (!added.ok) throw new Error(added.error.message);
    trusted = added.keys;
  });

  for (const legacy of [false, true]) {
    it(`${legacy ? 'legacy Ed' : 'ED'}: verified with a trusted key, unknown_key without`, async () => {
      const path = signed(legacy);
      const verified = await inspectApo(path, { trustedKeys: trusted });
      expect([verified.ok, verified.summary?.signature]).toEqual([
        true,
        {
          state: 'verified',
          key_id: publisher.printedKeyId,
          trusted_comment: 'invoices 1.2.0',
          signer: 'Example Accounting',
          public_key: trusted[0]?.publicKey,
          reason: null,
          message: null,
        },
      ]);
      const unknown = await inspectApo(path);
      expect(unknown.summary?.signature).toEqual({
        state: 'unknown_key',
        key_id: publisher.printedKeyId,
        trusted_comment: null,
        signer: null,
        public_key: null,
        reason: null,
        message: null,
      });
    });
  }

  it('a signature for another file is signature.invalid', async () => {
    const one = signed();
    const other = join(dir, 'other.apo');
    writeFileSync(other, packFolder(new URL('../../../test/fixtures/apo/watcher', import.meta.url).pathname));
    copyFileSync(`${one}.minisig`, `${other}.minisig`);
    expect(await firstError(other)).toMatchObject({ code: 'signature.invalid' });
  });

  it('a flipped bit in the signature is signature.invalid', async () => {
    const path = signed();
    const lines = readFileSync(`${path}.minisig`, 'utf8').split('\n');
    const bytes = Buffer.from(lines[1] as string, 'base64');
    bytes[40] = (bytes[40] as number) ^ 1;
    lines[1] = bytes.toString('base64');
    writeFileSync(`${path}.minisig`, lines.join('\n'));
    expect(await firstError(path)).toMatchObject({ code: 'signature.invalid' });
  });

  it('a trusted comment edited after signing is signature.invalid', async () => {
    const path = signed();
    writeFileSync(
      `${path}.minisig`,
      readFileSync(`${path}.minisig`, 'utf8').replace('invoices 1.2.0', 'invoices 1.2.1'),
    );
    expect(await firstError(path)).toMatchObject({ code: 'signature.invalid' });
  });

  it('a key id that does not match the key is signature.invalid (the id selects the key; the forged bytes fail)', async () => {
    const path = signed();
    const stranger = minisignKeyPair(dir, 'stranger');
    const lines = readFileSync(`${path}.minisig`, 'utf8').split('\n');
    const bytes = Buffer.from(lines[1] as string, 'base64');
    const strangerKey = Buffer.from((stranger.publicKeyText.split('\n')[1] as string).trim(), 'base64');
    strangerKey.copy(bytes, 2, 2, 10); // the stranger's key id over the publisher's signature
    lines[1] = bytes.toString('base64');
    writeFileSync(`${path}.minisig`, lines.join('\n'));
    const added = addTrustedKey(trusted, stranger.publicKeyText, 'Stranger', new Date('2026-12-01T00:00:00Z'));
    if (!added.ok) throw new Error(added.error.message);
    const inspection = await inspectApo(path, { trustedKeys: added.keys });
    expect(inspection.errors[0]).toMatchObject({ code: 'signature.invalid' });
  });

  it('a truncated .minisig is signature.malformed naming the file', async () => {
    const path = signed();
    writeFileSync(`${path}.minisig`, readFileSync(`${path}.minisig`, 'utf8').slice(0, 60));
    expect(await firstError(path)).toMatchObject({
      code: 'signature.malformed',
      message: expect.stringContaining(`${path}.minisig`),
    });
  });

  it('an unknown algorithm is signature.unknown_algorithm', async () => {
    const path = signed();
    const lines = readFileSync(`${path}.minisig`, 'utf8').split('\n');
    const bytes = Buffer.from(lines[1] as string, 'base64');
    bytes.write('XY', 0, 'latin1');
    lines[1] = bytes.toString('base64');
    writeFileSync(`${path}.minisig`, lines.join('\n'));
    expect(await firstError(path)).toMatchObject({ code: 'signature.unknown_algorithm' });
  });

  it('a huge .minisig is signature.too_large', async () => {
    const path = signed();
    writeFileSync(`${path}.minisig`, Buffer.alloc(1024 * 1024, 0x41));
    expect(await firstError(path)).toMatchObject({ code: 'signature.too_large' });
  });
});
