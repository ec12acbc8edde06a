/**
 * Focus follows navigation: when another screen is shown, focus moves to its heading (its `h1`),
 * so a keyboard or screen-reader user starts there instead of at the top of the page, and focus
 * never drops to the page body when the button that navigated disappears. A screen that loads
 * lazily gets focus once its heading is drawn. Focus already inside the new screen (a screen that
 * focused a field itself) is left where it is.
 */
export function focusHeadingWhenShown(main: HTMLElement | null): () => void {
  if (!main) return () => undefined;
  const focus = (): boolean => {
    // The shown heading: a screen that was on view while the next one loads is kept, hidden, beside it.
    const heading = [...main.querySelectorAll('h1')].find((h1) => h1.getClientRects().length > 0);
    if (!heading) return false;
    const active = main.ownerDocument.activeElement;
    if (
      active &&
      active !== main &&
      active !== main.ownerDocument.body &&
      main.contains(active) &&
      active.getClientRects().length > 0
    )
      return true;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
    return main.ownerDocument.activeElement === heading;
  };
  if (focus()) return () => undefined;
  const observer = new MutationObserver(() => {
    if (focus()) observer.disconnect();
  });
  observer.observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ['style', 'hidden'] });
  // A screen that never draws a heading (a load that failed) stops the watch after a while.
  const stop = setTimeout(() => observer.disconnect(), 10_000);
  return () => {
    clearTimeout(stop);
    observer.disconnect();
  };
}
