/**
 * Whether this app runs without Chromium's sandbox (DESIGN.md "Security of the app itself": the app
 * never runs with the sandbox off without saying so). The window shows text from untrusted
 * packages, so `--no-sandbox` — typed, added by a launcher (an AppImage's adds it whenever
 * `unshare -Ur true` fails, as under Ubuntu's AppArmor user-namespace restriction), or asked
 * through `ELECTRON_DISABLE_SANDBOX` — makes every screen say so and install refuse
 * (`app.sandbox_off`). No `electron` import: `index.ts` passes `app.commandLine.hasSwitch`.
 */

/** What the detection reads of this process. */
export interface SandboxFacts {
  /** `process.argv`. */
  argv: readonly string[];
  /** `app.commandLine.hasSwitch`: Chromium's own reading of its switches (any prefix it accepts). */
  hasSwitch(name: string): boolean;
  env: Readonly<Record<string, string | undefined>>;
}

/** True when the renderer runs without Chromium's sandbox. */
export function startedWithoutSandbox(facts: SandboxFacts): boolean {
  if (facts.hasSwitch('no-sandbox')) return true;
  // Chromium reads `--no-sandbox`, `-no-sandbox` (and `/no-sandbox` on Windows), with or without a value.
  if (facts.argv.some((arg) => /^(?:--?|\/)no-sandbox(?:=.*)?$/i.test(arg))) return true;
  // Electron turns this variable into --no-sandbox; any value but an empty one counts.
  const disable = facts.env['ELECTRON_DISABLE_SANDBOX'];
  return disable !== undefined && disable !== '';
}
