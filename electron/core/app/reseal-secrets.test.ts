import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testApi } from '../../../test/helpers/test-api';
import { deferredSecretBox, type SecretBox } from '../secrets/secret-box';

/** A box that seals as `<generation>:<text>` and flags seals of an older generation (as `shouldReEncrypt` does). */
function generationBox(current: { generation: string; locked?: boolean }): SecretBox {
  const open = async (bytes: Uint8Array) => {
    if (current.locked) throw Object.assign(new Error('the keychain is locked'), { temporary: true });
    const [generation, ...rest] = Buffer.from(bytes).toString('utf8').split(':');
    return { text: rest.join(':'), reseal: generation !== current.generation };
  };
  return {
    backend: () => 'keychain',
    encrypt: async (text) => Buffer.from(`${current.generation}:${text}`),
    decrypt: async (bytes) => (await open(bytes)).text,
    open,
  };
}

const stored = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'state.json'), 'utf8'));
const unsealed = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

describe('resealSecrets', () => {
  it('seals again exactly the secrets the box flags, and leaves the others byte for byte', async () => {
    const keychain = { generation: 'g1' };
    const { api, dataDir } = testApi({ secretBox: generationBox(keychain) });
    await api.saveSecret({ name: 'OPENROUTER_API_KEY', value: 'sk-old' });
    keychain.generation = 'g2'; // the keychain's key was rotated
    await api.saveSecret({ name: 'PARALLEL_API_KEY', value: 'pk-new' });
    const before = stored(dataDir).settings.secrets;
    expect(await api.resealSecrets()).toBe(1);
    const after = stored(dataDir).settings.secrets;
    expect(unsealed(after.OPENROUTER_API_KEY.sealed)).toBe('g2:sk-old');
    expect(after.OPENROUTER_API_KEY.savedAt).toBe(before.OPENROUTER_API_KEY.savedAt);
    expect(after.PARALLEL_API_KEY).toEqual(before.PARALLEL_API_KEY);
    expect(await api.resealSecrets()).toBe(0);
  });

  it('leaves a secret it cannot open now (a locked keychain) for the next start, and writes nothing', async () => {
    const keychain = { generation: 'g1', locked: false };
    const { api, dataDir } = testApi({ secretBox: generationBox(keychain) });
    await api.saveSecret({ name: 'OPENROUTER_API_KEY', value: 'sk-old' });
    keychain.generation = 'g2';
    keychain.locked = true;
    const before = readFileSync(join(dataDir, 'state.json'), 'utf8');
    expect(await api.resealSecrets()).toBe(0);
    expect(readFileSync(join(dataDir, 'state.json'), 'utf8')).toBe(before);
  });

  it('waits for a box still being made (the window opened first)', async () => {
    const keychain = { generation: 'g1' };
    let finish!: (box: SecretBox) => void;
    const { api } = testApi({ secretBox: deferredSecretBox(new Promise<SecretBox>((resolve) => (finish = resolve))) });
    const saving = api.saveSecret({ name: 'OPENROUTER_API_KEY', value: 'sk' });
    const settings = await api.settings();
    expect(settings.ok && settings.value.secretBackend).toBe('pending');
    finish(generationBox(keychain));
    expect((await saving).ok).toBe(true);
    expect(await api.resealSecrets()).toBe(0);
  });
});
