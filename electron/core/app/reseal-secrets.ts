/**
 * Seals again the secrets the box says should be (Electron's `shouldReEncrypt`: the keychain's key
 * was rotated, or a secret was sealed where the box no longer keeps new ones — Chromium's fixed
 * fallback key on a Linux without a keyring, now the file-key box). Run by the app once its box is
 * ready: webhook secrets, saved secrets and MCP server credentials are opened, and those flagged
 * are written back sealed anew, in one store update that leaves alone any value changed meanwhile.
 * A secret that cannot be opened now (a locked keychain) is left as it is, for the next start.
 */
import type { ApiContext } from './context';

/** Where a sealed value lives in the store. */
type SealedAt = { kind: 'webhook'; ref: string } | { kind: 'secret'; name: string } | { kind: 'mcp'; name: string };

/** Re-seals what the box flags; the number of secrets sealed anew. */
export async function resealSecrets(ctx: ApiContext): Promise<number> {
  const box = ctx.deps.secretBox;
  await box.ready?.();
  const open = box.open?.bind(box);
  if (!open || box.backend() === 'unavailable') return 0;
  const state = await ctx.store.read();
  const found: { at: SealedAt; sealed: string }[] = [
    ...Object.entries(state.webhookSecrets).map(([ref, sealed]) => ({ at: { kind: 'webhook', ref } as const, sealed })),
    ...Object.entries(state.settings.secrets).map(([name, secret]) => ({
      at: { kind: 'secret', name } as const,
      sealed: secret.sealed,
    })),
    ...Object.entries(state.settings.mcpServers).flatMap(([name, server]) =>
      server.sealed === null ? [] : [{ at: { kind: 'mcp', name } as const, sealed: server.sealed }],
    ),
  ];
  const renewed: { at: SealedAt; before: string; after: string }[] = [];
  for (const { at, sealed } of found) {
    try {
      const { text, reseal } = await open(Buffer.from(sealed, 'base64'));
      if (reseal) renewed.push({ at, before: sealed, after: Buffer.from(await box.encrypt(text)).toString('base64') });
    } catch (error) {
      ctx.deps.log?.(`apollia: a sealed secret could not be opened to seal it again (${at.kind})`, error);
    }
  }
  if (renewed.length === 0) return 0;
  return ctx.store.update((fresh) => {
    let done = 0;
    for (const { at, before, after } of renewed) {
      if (
        at.kind === 'webhook' &&
        Object.hasOwn(fresh.webhookSecrets, at.ref) &&
        fresh.webhookSecrets[at.ref] === before
      ) {
        fresh.webhookSecrets[at.ref] = after;
        done++;
      } else if (
        at.kind === 'secret' &&
        Object.hasOwn(fresh.settings.secrets, at.name) &&
        fresh.settings.secrets[at.name]?.sealed === before
      ) {
        fresh.settings.secrets[at.name] = {
          ...(fresh.settings.secrets[at.name] as { sealed: string; savedAt: string }),
          sealed: after,
        };
        done++;
      } else if (
        at.kind === 'mcp' &&
        Object.hasOwn(fresh.settings.mcpServers, at.name) &&
        fresh.settings.mcpServers[at.name]?.sealed === before
      ) {
        fresh.settings.mcpServers[at.name] = {
          ...(fresh.settings.mcpServers[at.name] as NonNullable<(typeof fresh.settings.mcpServers)[string]>),
          sealed: after,
        };
        done++;
      }
    }
    return done > 0 ? { result: done } : { result: done, write: false };
  });
}
