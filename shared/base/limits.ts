/**
 * The limits a package's manifest is held to that a request about it must also hold: one source,
 * so whatever `inspect` accepts can be installed from the form and the CLI (the Api's request
 * schemas take their caps from here, the manifest reader refuses past them with its own message).
 */

/** `apollia.toml` is at most 1 MiB (DESIGN.md "Reading without running"): no name in it is longer. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/**
 * Access entries one agent may be offered (`agents[].defaults.access`). No real agent comes near
 * it; 10,000 is what the bench's crowded packages use, so a package this app measures installs.
 */
export const MAX_ACCESS_PER_AGENT = 10_000;

/** Agents one package may declare. */
export const MAX_AGENTS = 10_000;

/** Triggers one package may propose. */
export const MAX_TRIGGERS = 10_000;

/**
 * The longest secret text a request may carry (a 64-byte key is 88 base64 characters; room for a paste's outer
 * whitespace).
 */
export const MAX_WEBHOOK_SECRET_TEXT = 1024;

/** The ports Settings takes for the webhook listener: not the system's (below 1024), at most 65535. */
export const WEBHOOK_PORT_RANGE = { min: 1024, max: 65_535 } as const;

/** The longest id a request carries (a source, folder, agent or trigger id; an apply's request id). */
export const MAX_REQUEST_ID = 256;
