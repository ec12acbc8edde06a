import { describe, expect, it } from 'vitest';
import { looksLikeSecretName, secretLookingNames } from './secret-names';

describe('looksLikeSecretName', () => {
  it.each([
    'AWS_SECRET_ACCESS_KEY',
    'GITHUB_TOKEN',
    'DB_PASSWORD',
    'OPENROUTER_API_KEY',
    'STRIPE_KEY',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'auth-token',
    'SECRET',
  ])('%s looks like a secret', (name) => {
    expect(looksLikeSecretName(name)).toBe(true);
  });

  it.each(['LEDGER_URL', 'LOG_LEVEL', 'HOME', 'KEYBOARD_LAYOUT', 'MONKEY', 'TOKENIZER_MODEL', 'PATH'])(
    '%s does not',
    (name) => {
      expect(looksLikeSecretName(name)).toBe(false);
    },
  );

  it('keeps the order of the names', () => {
    expect(secretLookingNames(['LOG_LEVEL', 'AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'])).toEqual([
      'AWS_SECRET_ACCESS_KEY',
      'GITHUB_TOKEN',
    ]);
  });
});
