/**
 * That the one-time close notice was shown (`background.ts` `CloseNotice`), kept across starts as
 * an empty file in the app's folder. No `electron` import: tested with a temp folder; the dialog
 * itself is `index.ts`'s.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** The marker's name in the app's folder. */
export const CLOSE_NOTICE_FILE = 'close-notice-shown';

/** Whether the notice was shown, and keeping that it was; `dir` is the app's folder (`userData`). */
export function closeNoticeMarker(dir: string): { shown(): boolean; markShown(): void } {
  const path = join(dir, CLOSE_NOTICE_FILE);
  return {
    shown: () => existsSync(path),
    markShown: () => {
      try {
        closeSync(openSync(path, 'a', 0o600));
      } catch {
        // Not kept: the notice shows again at the next start's first close, which is harmless.
      }
    },
  };
}
