import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/test-api';
import { putTriggers, triggerRecord } from '../../../test/helpers/trigger-host';
import { createFileKeySecretBox, type SecretBox, SecretBoxLockedError } from '../secrets/secret-box';
import { TriggerHost } from './trigger-host';

const HOOK = 'crm/new-lead';
const hosts: TriggerHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop()));
});

/** The problem line the host prints for the webhook whose secret `decrypt` fails with `error`. */
async function problemWith(error: Error): Promise<string> {
  const dataDir = tempDir('apollia-locked-');
  await putTriggers(dataDir, [triggerRecord({ id: HOOK, type: 'webhook' })]);
  const real = createFileKeySecretBox(dataDir);
  const box: SecretBox = { ...real, backend: () => 'keychain', decrypt: () => Promise.reject(error) };
  const lines: string[] = [];
  const host = new TriggerHost({
    dataDir,
    secretBox: box,
    port: 0,
    watchStore: false,
    onLine: (line) => lines.push(line),
  });
  hosts.push(host);
  await host.start();
  return lines.find((line) => line.includes(HOOK) && line.includes('secret')) ?? lines.join('\n');
}

describe('a webhook whose secret cannot be opened', () => {
  it('says to unlock a locked keychain, never to rotate the secret', async () => {
    const line = await problemWith(new SecretBoxLockedError('the keychain is locked or not answering yet'));
    expect(line).toContain('locked');
    expect(line).toContain("don't rotate it");
    expect(line).not.toMatch(/: rotate it$/);
  });

  it('says to rotate a secret that cannot be opened at all', async () => {
    expect(await problemWith(new Error('Error while decrypting the ciphertext'))).toMatch(/rotate it$/);
  });
});
