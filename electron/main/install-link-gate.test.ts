/** Install links reaching the app: which arguments are links, and one form at a time. */
import { describe, expect, it } from 'vitest';
import { createLinkDispatcher, InstallLinkGate, installLinksFromArgv } from './install-link-gate';

const link = (n: number) => `apollia://install?feed=https%3A%2F%2Fe.example%2Ffeed.json&package=p${n}`;

describe('installLinksFromArgv', () => {
  it('keeps the apollia: arguments, each once, and nothing else', () => {
    expect(installLinksFromArgv(['/opt/Apollia/apollia', '--flag', link(1), '/tmp/a.apo', link(1), link(2)])).toEqual([
      link(1),
      link(2),
    ]);
    expect(installLinksFromArgv(['https://install?x', 'apollia-notes.txt'])).toEqual([]);
  });
});

describe('InstallLinkGate', () => {
  it('handles one link at a time, and of a burst keeps only the latest to follow', () => {
    const gate = new InstallLinkGate();
    expect(gate.offer(link(1))).toBe(link(1));
    const burst = Array.from({ length: 100 }, (_, i) => gate.offer(link(i + 2)));
    expect(burst.every((answer) => answer === null)).toBe(true);
    expect(gate.done()).toBe(link(101));
    expect(gate.done()).toBeNull();
    expect(gate.busy).toBe(false);
  });

  it('drops a link equal to the one in hand', () => {
    const gate = new InstallLinkGate();
    gate.offer(link(1));
    expect(gate.offer(link(1))).toBeNull();
    expect(gate.done()).toBeNull();
    expect(gate.offer(link(1))).toBe(link(1));
  });
});

describe('createLinkDispatcher', () => {
  it('opens one link at a time: a burst while the first is fetched gives one more, the latest', async () => {
    const pending: { link: string; finish: () => void }[] = [];
    const delivered: string[] = [];
    const dispatcher = createLinkDispatcher(
      (text) =>
        new Promise((resolve) => {
          pending.push({
            link: text,
            finish: () =>
              resolve({
                ok: true,
                value: { id: text, kind: 'apo', displayName: 'p.apo', folders: [], origin: 'command-line' },
              }),
          });
        }),
      (result) => delivered.push(result.ok ? result.value.id : 'refused'),
    );
    for (let i = 1; i <= 20; i++) dispatcher.offer(link(i));
    expect(pending.map((p) => p.link)).toEqual([link(1)]);
    pending[0]?.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered).toEqual([link(1)]);
    expect(pending.map((p) => p.link)).toEqual([link(1), link(20)]);
    pending[1]?.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered).toEqual([link(1), link(20)]);
    dispatcher.offer(link(21));
    expect(pending.map((p) => p.link)).toEqual([link(1), link(20), link(21)]);
  });

  it('a throw while opening is delivered as a refusal, and the gate opens again', async () => {
    const delivered: string[] = [];
    const dispatcher = createLinkDispatcher(
      async () => {
        throw new Error('boom');
      },
      (result) => delivered.push(result.ok ? 'opened' : result.error.message),
    );
    dispatcher.offer(link(1));
    await new Promise((resolve) => setImmediate(resolve));
    dispatcher.offer(link(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered).toEqual(['The link could not be opened: boom', 'The link could not be opened: boom']);
  });
});
