/**
 * Armed triggers are the point of the app between installs (DESIGN.md "Triggers at run time"), so
 * closing the last window does not stop them: while the trigger host is live the app keeps running
 * with a tray (menu-bar) icon whose menu opens the window, pauses or resumes the triggers, and
 * quits. With no live host (none armed, `serve` holds the data folder, or paused) closing the last
 * window quits as before (macOS keeps its Dock app, as every Mac app does).
 *
 * No `electron` import: tested with a faked tray and host; `index.ts` passes Electron's `Tray`,
 * `Menu` and the real trigger host.
 */

/**
 * The tray's icon in the app's resources (`process.resourcesPath/icons`, electron-builder.yml
 * `extraResources`): on macOS a template image (black and alpha, tinted by macOS for a light or
 * dark menu bar; `trayTemplate@2x.png` beside it is loaded with it), elsewhere the app's 32 px icon.
 */
export function trayIcon(platform: NodeJS.Platform): { file: string; template: boolean } {
  return platform === 'darwin' ? { file: 'trayTemplate.png', template: true } : { file: '32x32.png', template: false };
}

/** One entry of the tray's menu. */
export type TrayMenuItem = { label: string; click: () => void; enabled?: boolean } | { type: 'separator' };

/** The tray as the controller drives it. */
export interface TrayLike {
  setMenu(items: TrayMenuItem[]): void;
  setToolTip(text: string): void;
  destroy(): void;
}

/** What the controller needs from the app. */
export interface BackgroundDeps {
  platform: NodeJS.Platform;
  /** Makes the tray (its icon is the app's). */
  createTray(): TrayLike;
  /** Opens a window, or brings the open one forward. */
  openWindow(): void;
  /** Starts the trigger host; resolves false when it could not (another host holds the data folder). */
  startHost(): Promise<boolean>;
  /** Stops the trigger host (its timers, watchers, listener). */
  stopHost(): Promise<void>;
  quit(): void;
  /** Whether a window is open now. */
  windowOpen(): boolean;
  /**
   * Where the tray may not show (Linux: vanilla GNOME has no AppIndicator, and no API says whether
   * one is there), the first close that leaves the triggers running says so, once, and lets the
   * person quit instead. Absent: the tray always shows (macOS, Windows).
   */
  closeNotice?: CloseNotice | undefined;
}

/** The one-time notice of a close that keeps the app running without a visible tray. */
export interface CloseNotice {
  /** Whether it was shown before (kept across starts). */
  shown(): boolean;
  /** Keeps that it was shown. */
  markShown(): void;
  /** Shows it; answers what the person chose. */
  ask(): Promise<'keep running' | 'quit'>;
}

/** Where the triggers are. */
export type TriggersState = 'starting' | 'live' | 'paused' | 'off';

/** Keeps the triggers running in the background, and the tray that says so. */
export class BackgroundTriggers {
  private state: TriggersState = 'off';
  private tray: TrayLike | null = null;

  constructor(private readonly deps: BackgroundDeps) {}

  /** The triggers' state now (for tests and the log). */
  triggers(): TriggersState {
    return this.state;
  }

  /** Starts the triggers with the app; the tray appears once they are live. */
  async start(): Promise<boolean> {
    this.state = 'starting';
    const live = await this.deps.startHost();
    this.state = live ? 'live' : 'off';
    this.refreshTray();
    return live;
  }

  /** Pauses the triggers (the tray's "Pause triggers"): nothing fires until resumed or the app starts again. */
  async pause(): Promise<void> {
    if (this.state !== 'live') return;
    await this.deps.stopHost();
    this.state = 'paused';
    this.refreshTray();
  }

  /**
   * Resumes paused triggers. A host that cannot start again (`serve` took the data folder, the
   * port is taken) leaves nothing live: with no window open either, the app quits rather than run
   * with neither (macOS keeps its Dock app).
   */
  async resume(): Promise<void> {
    if (this.state !== 'paused') return;
    if (!(await this.start())) this.quitIfNothingLive();
  }

  /**
   * The last window closed: keep running while triggers are live (or paused, from the tray), else
   * quit. Where the tray may not show, the first such close asks once (`closeNotice`).
   */
  windowsAllClosed(): 'keep running' | 'quit' | 'stay (macOS)' | 'asking' {
    if (this.state === 'live' || this.state === 'starting' || this.state === 'paused') {
      const notice = this.deps.closeNotice;
      if (!notice || notice.shown()) return 'keep running';
      notice.markShown();
      void notice.ask().then(
        (answer) => {
          if (answer === 'quit') this.deps.quit();
        },
        () => {},
      );
      return 'asking';
    }
    if (this.deps.platform === 'darwin') return 'stay (macOS)';
    this.deps.quit();
    return 'quit';
  }

  private quitIfNothingLive(): void {
    if (this.state === 'off' && !this.deps.windowOpen() && this.deps.platform !== 'darwin') this.deps.quit();
  }

  /** The tray's menu for the current state. */
  menu(): TrayMenuItem[] {
    const triggers: TrayMenuItem =
      this.state === 'paused'
        ? { label: 'Resume triggers', click: () => void this.resume() }
        : { label: 'Pause triggers', click: () => void this.pause(), enabled: this.state === 'live' };
    return [
      { label: 'Open Apollia Desktop', click: () => this.deps.openWindow() },
      triggers,
      { type: 'separator' },
      { label: 'Quit Apollia Desktop (stops the triggers)', click: () => this.deps.quit() },
    ];
  }

  /** What the tray's tooltip says. */
  toolTip(): string {
    return this.state === 'paused' ? 'Apollia Desktop: triggers paused' : 'Apollia Desktop: triggers are live';
  }

  /** Removes the tray (the app is quitting). */
  dispose(): void {
    this.tray?.destroy();
    this.tray = null;
  }

  private refreshTray(): void {
    if (this.state === 'off') {
      this.dispose();
      return;
    }
    this.tray ??= this.deps.createTray();
    this.tray.setMenu(this.menu());
    this.tray.setToolTip(this.toolTip());
  }
}
