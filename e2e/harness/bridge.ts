/**
 * The browser stand-in for the preload (DESIGN.md "Testing"): defines `window.apollia` with exactly
 * the methods of `API_METHODS` (each a `POST /api/<method>` to the harness), plus `onOpened` over
 * `EventSource('/events')` and `openDropped` (which, like the preload for a non-file, refuses: a
 * browser cannot see a dropped file's path).
 *
 * `installBridge` is handed to Playwright's `page.addInitScript`, which serialises it: it must be
 * self-contained (no imports or outer variables at run time).
 */

/** What `installBridge` needs: the method list (pass `API_METHODS`). */
export interface BridgeConfig {
  methods: readonly string[];
}

/** Defines `window.apollia` in the page. Runs in the browser, before the app's scripts. */
export function installBridge(config: BridgeConfig): void {
  interface OpenedEvent {
    data: string;
  }
  interface EventSourceLike {
    addEventListener(type: 'opened', listener: (event: OpenedEvent) => void): void;
  }
  const page = globalThis as unknown as {
    apollia?: unknown;
    EventSource: new (url: string) => EventSourceLike;
  };
  const post = async (method: string, request: unknown): Promise<unknown> => {
    const response = await fetch(`/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request === undefined ? null : request),
    });
    return response.json();
  };
  const bridge: Record<string, unknown> = {};
  for (const method of config.methods) bridge[method] = (request?: unknown) => post(method, request);

  const pending: unknown[] = [];
  const listeners = new Set<(handle: unknown) => void>();
  const events = new page.EventSource('/events');
  events.addEventListener('opened', (event) => {
    const handle: unknown = JSON.parse(event.data);
    if (listeners.size === 0) pending.push(handle);
    for (const listener of listeners) listener(handle);
  });
  bridge['onOpened'] = (listener: (handle: unknown) => void) => {
    listeners.add(listener);
    for (const handle of pending.splice(0)) listener(handle);
    return () => {
      listeners.delete(listener);
    };
  };
  bridge['openDropped'] = async () => ({
    ok: false,
    error: { code: 'source.not_a_file', message: 'What was dropped is not a file on this computer.' },
  });
  page.apollia = Object.freeze(bridge);
}
