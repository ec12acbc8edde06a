import { describe, expect, it } from 'vitest';
import { BackgroundTriggers, type BackgroundDeps, type TrayMenuItem } from './background';

/** Fakes of the tray, the host and the app, recording what was asked of them. */
function fakes(platform: NodeJS.Platform = 'linux', hostStarts = true) {
  const calls: string[] = [];
  const host = { starts: hostStarts, windowOpen: true };
  let menu: TrayMenuItem[] = [];
  let tip = '';
  const deps: BackgroundDeps = {
    platform,
    createTray: () => {
      calls.push('tray');
      return {
        setMenu: (items) => (menu = items),
        setToolTip: (text) => (tip = text),
        destroy: () => calls.push('tray destroyed'),
      };
    },
    openWindow: () => calls.push('open window'),
    startHost: async () => {
      calls.push('start host');
      return host.starts;
    },
    stopHost: async () => void calls.push('stop host'),
    quit: () => calls.push('quit'),
    windowOpen: () => host.windowOpen,
  };
  const click = (label: string) => {
    const item = menu.find((entry) => 'label' in entry && entry.label.startsWith(label));
    if (!item || !('click' in item)) throw new Error(`no menu item ${label}`);
    item.click();
  };
  return { deps, calls, host, menu: () => menu, tip: () => tip, click };
}

const labels = (items: TrayMenuItem[]) => items.map((item) => ('label' in item ? item.label : '---'));
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('triggers keep running when the window closes', () => {
  it('keeps the app in the tray while the triggers are live', async () => {
    const f = fakes('linux');
    const background = new BackgroundTriggers(f.deps);
    expect(await background.start()).toBe(true);
    expect(f.calls).toEqual(['start host', 'tray']);
    expect(labels(f.menu())).toEqual([
      'Open Apollia Desktop',
      'Pause triggers',
      '---',
      'Quit Apollia Desktop (stops the triggers)',
    ]);
    expect(f.tip()).toBe('Apollia Desktop: triggers are live');
    expect(background.windowsAllClosed()).toBe('keep running');
    expect(f.calls).not.toContain('quit');
  });

  it('opens the window again from the tray, and quits from it', async () => {
    const f = fakes();
    await new BackgroundTriggers(f.deps).start();
    f.click('Open Apollia Desktop');
    f.click('Quit');
    expect(f.calls.slice(-2)).toEqual(['open window', 'quit']);
  });

  it('pauses and resumes the triggers from the tray', async () => {
    const f = fakes();
    const background = new BackgroundTriggers(f.deps);
    await background.start();
    f.click('Pause triggers');
    await settle();
    expect(background.triggers()).toBe('paused');
    expect(f.calls).toContain('stop host');
    expect(labels(f.menu())[1]).toBe('Resume triggers');
    expect(f.tip()).toBe('Apollia Desktop: triggers paused');
    f.click('Resume triggers');
    await settle();
    expect(background.triggers()).toBe('live');
    expect(f.calls.filter((c) => c === 'start host')).toHaveLength(2);
    expect(f.calls.filter((c) => c === 'tray')).toHaveLength(1);
  });

  it('quits as before when no trigger host is live (serve holds the data folder)', async () => {
    const f = fakes('linux', false);
    const background = new BackgroundTriggers(f.deps);
    expect(await background.start()).toBe(false);
    expect(f.calls).toEqual(['start host']);
    expect(background.windowsAllClosed()).toBe('quit');
    expect(f.calls).toContain('quit');
  });

  it('on macOS, with no live host, stays in the Dock as Mac apps do', async () => {
    const f = fakes('darwin', false);
    const background = new BackgroundTriggers(f.deps);
    await background.start();
    expect(background.windowsAllClosed()).toBe('stay (macOS)');
    expect(f.calls).not.toContain('quit');
  });

  it('removes the tray when the app quits', async () => {
    const f = fakes();
    const background = new BackgroundTriggers(f.deps);
    await background.start();
    background.dispose();
    expect(f.calls.at(-1)).toBe('tray destroyed');
  });
});

describe('where the tray may not show (Linux without AppIndicator)', () => {
  /** A notice kept across starts in `kept`, answering `answer`. */
  function notice(kept: { shown: boolean }, answer: 'keep running' | 'quit', asked: string[]) {
    return {
      shown: () => kept.shown,
      markShown: () => void (kept.shown = true),
      ask: async () => {
        asked.push('asked');
        return answer;
      },
    };
  }

  it('asks once, at the first close that leaves the triggers running, and quits when told to', async () => {
    const f = fakes('linux');
    const kept = { shown: false };
    const asked: string[] = [];
    const background = new BackgroundTriggers({ ...f.deps, closeNotice: notice(kept, 'quit', asked) });
    await background.start();
    expect(background.windowsAllClosed()).toBe('asking');
    await settle();
    expect(asked).toEqual(['asked']);
    expect(f.calls.at(-1)).toBe('quit');
    expect(kept.shown).toBe(true);
  });

  it('keeps running after the answer “keep running”, and never asks again (kept across starts)', async () => {
    const kept = { shown: false };
    const asked: string[] = [];
    for (let start = 0; start < 2; start++) {
      const f = fakes('linux');
      const background = new BackgroundTriggers({ ...f.deps, closeNotice: notice(kept, 'keep running', asked) });
      await background.start();
      expect(background.windowsAllClosed()).toBe(start === 0 ? 'asking' : 'keep running');
      await settle();
      expect(f.calls).not.toContain('quit');
    }
    expect(asked).toEqual(['asked']);
  });

  it('asks nothing when nothing is live: the app quits as before', async () => {
    const f = fakes('linux', false);
    const asked: string[] = [];
    const background = new BackgroundTriggers({
      ...f.deps,
      closeNotice: notice({ shown: false }, 'keep running', asked),
    });
    await background.start();
    expect(background.windowsAllClosed()).toBe('quit');
    expect(asked).toEqual([]);
  });
});

describe('neither a window nor a live host: the process ends', () => {
  it('quits when resumed triggers cannot start again and no window is open', async () => {
    const f = fakes('linux');
    const background = new BackgroundTriggers(f.deps);
    await background.start();
    f.host.windowOpen = false;
    expect(background.windowsAllClosed()).toBe('keep running');
    await background.pause();
    f.host.starts = false; // serve took the data folder meanwhile
    await background.resume();
    expect(background.triggers()).toBe('off');
    expect(f.calls.slice(-2)).toEqual(['tray destroyed', 'quit']);
  });

  it('stays while a window is open, and keeps the Mac app in its Dock', async () => {
    for (const [platform, windowOpen] of [
      ['linux', true],
      ['darwin', false],
    ] as const) {
      const f = fakes(platform);
      const background = new BackgroundTriggers(f.deps);
      await background.start();
      await background.pause();
      f.host.windowOpen = windowOpen;
      f.host.starts = false;
      await background.resume();
      expect(background.triggers()).toBe('off');
      expect(f.calls, `${platform} ${windowOpen}`).not.toContain('quit');
    }
  });
});
