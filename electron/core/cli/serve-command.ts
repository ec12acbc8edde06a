/**
 * `apollia-desktop [--data-dir DIR] serve [--port N]`: the trigger host without the app, until
 * SIGINT or SIGTERM (DESIGN.md "Triggers at run time"). Prints one line per live trigger at start
 * (`listening <id> <url>`, `watching <id> <folder>`, `scheduled <id> next <ISO time>`), then one
 * line per event, each shown as one line whatever it holds (`terminalLine`). Webhook secrets are opened with the CLI's
 * file-key box (`secret-box.ts`): a secret
 * sealed by the app's keychain cannot be opened here, and that trigger is reported, not served.
 */
import { policyLocations, readPolicy } from '../policy/read-policy';
import { createFileKeySecretBox } from '../secrets/secret-box';
import { DEFAULT_WEBHOOK_PORT, HostError, TriggerHost } from '../triggers';
import { type CliIo, EXIT } from './cli-io';
import { defaultDataDir, refused } from './cli-data';
import { terminalLine } from './terminal-text';
import { PROGRAM, usageError } from './usage';

/** Usage of this command. */
export const SERVE_USAGE = [
  `Usage: ${PROGRAM} [--data-dir DIR] serve [--port N]`,
  '',
  'Makes armed triggers live until stopped (Ctrl-C): schedules fire, folders are watched,',
  `signed webhooks are received on 127.0.0.1 (port ${DEFAULT_WEBHOOK_PORT} unless --port; 0 picks a free one).`,
  'Each fire is written as a run request in runs/pending/ of the data folder.',
  'Exit 0: stopped; 1: could not start; 3: another trigger host already runs on the data folder.',
  '',
  'Exit status: 0 stopped, 1 refused, 2 usage error, 3 busy (another trigger host serves this folder).',
  '',
].join('\n');

function processSignals(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

/**
 * Why the trigger host could not start, as a refusal (DESIGN.md "The command line"): a sentence, or with `--json` the
 * one document, `serve.busy` (exit 3: another host serves this folder), `serve.port_in_use` (the port asked for, or the
 * one the organization's policy fixes) or `serve.failed` (exit 1).
 */
function startRefused(io: CliIo, error: unknown, where: { port: number; fixed: boolean }): number {
  if (error instanceof HostError && error.code === 'host.busy') {
    refused(io, { code: 'serve.busy', message: error.message });
    return EXIT.busy;
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
    return refused(io, {
      code: 'serve.port_in_use',
      message: where.fixed
        ? `port ${where.port} on 127.0.0.1 is in use, and your organization's policy fixes the webhook port at ${where.port}: stop the program that uses it, or ask your administrator`
        : `port ${where.port} on 127.0.0.1 is in use: pick another with --port (0 picks a free one)`,
      ...(where.fixed ? {} : { path: '--port' }),
    });
  return refused(io, {
    code: 'serve.failed',
    message: `the trigger host could not start: ${error instanceof Error ? error.message : String(error)}`,
  });
}

/** Runs `serve` with the arguments after the command name. */
export async function run(args: string[], io: CliIo): Promise<number> {
  let port = DEFAULT_WEBHOOK_PORT;
  let portGiven = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-h' || arg === '--help') {
      io.stdout(SERVE_USAGE);
      return EXIT.accepted;
    }
    if (arg === '--port' || arg.startsWith('--port=')) {
      const value = arg === '--port' ? args[++i] : arg.slice('--port='.length);
      if (value === undefined || !/^\d{1,5}$/.test(value) || Number(value) > 65_535)
        return usageError(
          io,
          `--port needs a port number from 0 to 65535${value === undefined ? '' : `, not \`${value}\``}`,
          SERVE_USAGE,
        );
      port = Number(value);
      portGiven = true;
      continue;
    }
    return usageError(
      io,
      arg.startsWith('-') ? `unknown option \`${arg}\` for serve` : 'serve takes no argument',
      SERVE_USAGE,
    );
  }
  const dataDir = io.dataDir ?? defaultDataDir(io.env);
  // The organization's webhook port is not the person's to change (DESIGN.md "Managed policy"): it wins over --port.
  const policy = readPolicy(policyLocations(io.env));
  const fixed = policy.effective?.webhookPort ?? null;
  // An unreadable policy pauses every trigger (DESIGN.md "Managed policy": fail closed): said, not left silent.
  if (policy.state === 'unreadable')
    io.stderr(
      `${PROGRAM}: note: your organization's policy ${policy.problem?.path ?? ''} cannot be used (${policy.problem?.message ?? 'unreadable'}): no trigger is made live until it is fixed\n`,
    );
  if (fixed !== null && portGiven && fixed !== port)
    io.stdout(`--port ${port} is not used: your organization's policy fixes the webhook port at ${fixed}\n`);
  if (fixed !== null) port = fixed;
  const waitForStop = (io.untilStopped ?? processSignals)();
  const host = new TriggerHost({
    dataDir,
    secretBox: createFileKeySecretBox(dataDir),
    port,
    policy: policyLocations(io.env),
    onLine: (line) => io.stdout(`${terminalLine(line)}\n`),
  });
  try {
    await host.start();
  } catch (error) {
    return startRefused(io, error, { port, fixed: fixed !== null });
  }
  io.stdout(`serving ${dataDir} on ${host.origin} (pid ${process.pid}); stop with Ctrl-C\n`);
  const signal = await waitForStop;
  await host.stop();
  io.stdout(`stopped (${signal})\n`);
  return EXIT.accepted;
}
