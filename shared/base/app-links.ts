/**
 * Where a person gets the newest Apollia Desktop: one fixed address, set here with the app (beside
 * package.json's `homepage`, which a test keeps it on). A refusal that says "update the app" offers
 * to open it, through the main process, which opens only this address: never a URL a package or the
 * renderer names.
 */
export const APP_DOWNLOAD_PAGE = 'https://apollia.app/download';

/** The download page without its scheme, as a person reads it (`apollia.app/download`). */
export const APP_DOWNLOAD_PAGE_SHOWN = APP_DOWNLOAD_PAGE.replace(/^https:\/\//, '');
