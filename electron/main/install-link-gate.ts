/**
 * Install links as they reach the app (DESIGN.md "Feeds, updates and install links"): from argv
 * (Windows and Linux pass the link as an argument, on first launch and to the running instance
 * through `second-instance`) and from macOS `open-url`. The pure part, with no `electron` import so
 * it is tested in plain Node: which arguments are links, and the gate that lets one form open at a
 * time however many links a page fires.
 */
import type { ApiResult, SourceHandle } from '../../shared/contract/api';
import type { CoreApi } from '../core/api';
import { CoreError } from '../core/errors';
import { parseInstallLink } from '../core/feeds/install-link';

/** The app's URL scheme, registered with the OS (`setAsDefaultProtocolClient`, the builder's `protocols`). */
export const APP_SCHEME = 'apollia';

/** The arguments of a command line that are install links (`apollia:…`), each once, in order. */
export function installLinksFromArgv(argv: readonly string[]): string[] {
  const links: string[] = [];
  for (const arg of argv) if (/^apollia:/i.test(arg) && !links.includes(arg)) links.push(arg);
  return links;
}

/**
 * One install link handled at a time: a link offered while another is being fetched and shown
 * waits; of the links that wait, only the latest is kept (a page that fires links in a loop gets
 * one form now and at most one after it), and a link equal to the one in hand or the one waiting is
 * dropped. The host calls {@link InstallLinkGate.done} when the link in hand has been shown (or
 * refused), and gets the next link to handle, if any.
 */
export class InstallLinkGate {
  private current: string | null = null;
  private waiting: string | null = null;

  /** Offers a link: answers it when it is to be handled now, else null (it waits, or is dropped). */
  offer(link: string): string | null {
    if (this.current === null) {
      this.current = link;
      return link;
    }
    if (link !== this.current) this.waiting = link;
    return null;
  }

  /** The link in hand is done: answers the next one to handle (now in hand), or null. */
  done(): string | null {
    this.current = this.waiting;
    this.waiting = null;
    return this.current;
  }

  /** Whether a link is in hand. */
  get busy(): boolean {
    return this.current !== null;
  }
}

/** What opening one link answers: the source's handle (the consent form opens on it), or the refusal. */
export type LinkOpened = ApiResult<SourceHandle>;

/**
 * An install link read strictly by core, its package fetched from the feed and verified, and opened
 * as a source (nothing installed, trusted, granted or armed): the handle, or the refusal as a value.
 */
export async function openInstallLink(api: Pick<CoreApi, 'feeds'>, text: string): Promise<LinkOpened> {
  try {
    const link = parseInstallLink(text);
    const opened = await api.feeds.open({
      feedUrl: link.feed,
      name: link.package,
      version: link.version,
      sha256: link.sha256,
      link: true,
    });
    return opened.ok ? { ok: true, value: opened.value.handle } : opened;
  } catch (error) {
    if (error instanceof CoreError) return { ok: false, error: error.toApiError() };
    throw error;
  }
}

/**
 * Links as the host hands them over (Electron main, the e2e harness): each offered through one
 * {@link InstallLinkGate}, opened by `open` one at a time, each result handed to `deliver`, then the
 * next (the latest that waited). However many links a page fires, one is fetched at a time and at
 * most one waits.
 */
export function createLinkDispatcher(
  open: (link: string) => Promise<LinkOpened>,
  deliver: (result: LinkOpened) => void,
): { offer(link: string): void } {
  const gate = new InstallLinkGate();
  const run = async (first: string) => {
    let next: string | null = first;
    while (next !== null) {
      let result: LinkOpened;
      try {
        result = await open(next);
      } catch (error) {
        result = {
          ok: false,
          error: {
            code: 'internal',
            message: `The link could not be opened: ${error instanceof Error ? error.message : String(error)}`,
          },
        };
      }
      deliver(result);
      next = gate.done();
    }
  };
  return {
    offer(link) {
      if (gate.offer(link) !== null) void run(link);
    },
  };
}
