import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileKeySecretBox, unavailableSecretBox } from './secret-box';
import { tempDir } from '../../../test/helpers/test-api';

describe('file-key secret box', () => {
  it('seals and opens, says it is not a keychain, and makes its key (0600) only on the first seal', async () => {
    const dir = tempDir();
    const box = createFileKeySecretBox(dir);
    expect(box.backend()).toBe('file_key');
    expect(readdirSync(dir)).toEqual([]);
    const sealed = await box.encrypt('whsec_secret');
    expect(Buffer.from(sealed).toString('utf8')).not.toContain('whsec_secret');
    expect(await createFileKeySecretBox(dir).decrypt(sealed)).toBe('whsec_secret');
    expect(statSync(join(dir, 'secret-box.key')).mode & 0o777).toBe(0o600);
  });

  it('refuses tampered bytes', async () => {
    const box = createFileKeySecretBox(tempDir());
    const sealed = Buffer.from(await box.encrypt('x'));
    sealed.writeUInt8((sealed.at(-1) ?? 0) ^ 1, sealed.length - 1);
    await expect(box.decrypt(sealed)).rejects.toThrow();
  });

  it('the unavailable box refuses to seal', async () => {
    expect(unavailableSecretBox.backend()).toBe('unavailable');
    await expect(unavailableSecretBox.encrypt('x')).rejects.toThrow('this machine has no way to keep secrets');
  });
});
