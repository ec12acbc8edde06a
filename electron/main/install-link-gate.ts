/**
 * Install links as they reach the app (DESIGN.md "Feeds, updates and install links"): from argv
 * (Windows and Linux pass the link as an argument, on first launch and to the running instance
 * through `second-instance`) and from macOS `open-url`. The pure part, with no `electron` import so
 * it is tested in plain Node: which arguments are links, and the gate that lets one form open at a
 * time however many links a page fires.
 */

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
