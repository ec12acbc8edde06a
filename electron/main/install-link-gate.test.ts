/** Install links reaching the app: which arguments are links, and one form at a time. */
import { describe, expect, it } from 'vitest';
import { InstallLinkGate, installLinksFromArgv } from './install-link-gate';

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
