import { describe, expect, it } from 'vitest';
import type { CliIo } from '../core/cli/cli-io';
import { COMMANDS } from '../core/cli/commands';
import { cliArgumentsOf, commandOf, type EntryApp, type EntryDeps, startEntry, typedArguments } from './cli-dispatch';

/** A faked Electron `app` that records every call, in order. */
function fakeApp(lock = true) {
  const calls: string[] = [];
  const beforeQuit: ((event: { preventDefault(): void }) => void)[] = [];
  const app: EntryApp = {
    requestSingleInstanceLock: () => {
      calls.push('lock');
      return lock;
    },
    disableHardwareAcceleration: () => calls.push('no gpu'),
    setPath: (name, path) => calls.push(`setPath ${name} ${path}`),
    quit: () => calls.push('quit'),
    exit: (code) => calls.push(`exit ${code}`),
    once: (_event, listener) => beforeQuit.push(listener),
    dock: { hide: () => calls.push('dock.hide') },
  };
  return { app, calls, beforeQuit };
}

function deps(
  argv: string[],
  calls: string[],
  run: (argv: string[], io: CliIo) => Promise<number> = async () => 0,
  defaultApp = false,
): EntryDeps & {
  ran: { argv: string[]; io: CliIo }[];
  errors: string[];
  pipes: (() => void)[];
  signals: ((signal: string) => void)[];
} {
  const ran: { argv: string[]; io: CliIo }[] = [];
  const errors: string[] = [];
  const signals: ((signal: string) => void)[] = [];
  const pipes: (() => void)[] = [];
  return {
    ran,
    errors,
    pipes,
    argv,
    defaultApp,
    runCli: (cliArgv, io) => {
      calls.push(`cli ${cliArgv.join(' ')}`);
      ran.push({ argv: cliArgv, io });
      return run(cliArgv, io);
    },
    io: { stdout: () => {}, stderr: (text) => errors.push(text), cwd: '/home/ada', env: { HOME: '/home/ada' } },
    resourcesDir: '/opt/Apollia Desktop/resources',
    startApp: () => calls.push('startApp'),
    headless: false,
    commandSession: () => {
      calls.push('session made');
      return { path: '/tmp/apollia-desktop-command-1', remove: () => calls.push('session removed') };
    },
    signals,
    onSignal: (listener) => signals.push(listener),
    flushOutput: async () => {
      calls.push('flush');
    },
    onBrokenPipe: (stop) => pipes.push(stop),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const BINARY = '/opt/Apollia Desktop/apollia-desktop';

describe('the app binary started with a CLI command', () => {
  it('runs the CLI entry before the single-instance lock and exits with its code', async () => {
    const { app, calls } = fakeApp();
    const d = deps([BINARY, 'inspect', 'pkg.apo', '--json'], calls, async () => 1);
    expect(startEntry(app, d)).toBe('cli');
    await settle();
    expect(calls).toEqual([
      'no gpu',
      'session made',
      'setPath sessionData /tmp/apollia-desktop-command-1',
      'dock.hide',
      'cli inspect pkg.apo --json',
      'flush',
      'session removed',
      'exit 1',
    ]);
    expect(d.ran[0]?.io.cwd).toBe('/home/ada');
  });

  it('finds the built-in templates through the app’s resources folder', async () => {
    const { app, calls } = fakeApp();
    const d = deps([BINARY, 'apply', 'code-review'], calls);
    startEntry(app, d);
    await settle();
    expect(d.ran[0]?.io.resourcesDir).toBe('/opt/Apollia Desktop/resources');
    expect(d.ran[0]?.io.env.APOLLIA_RESOURCES).toBeUndefined();
    expect(d.ran[0]?.io.env.HOME).toBe('/home/ada');
  });

  it('dispatches every command of the CLI, and help', () => {
    for (const name of [...COMMANDS.map((c) => c.name), 'help']) expect(cliArgumentsOf([name]), name).toEqual([name]);
  });

  it('skips Chromium’s switches before the command, keeps --data-dir and its value', () => {
    expect(cliArgumentsOf(['--ozone-platform=headless', '--disable-gpu', 'serve', '--port', '9000'])).toEqual([
      'serve',
      '--port',
      '9000',
    ]);
    expect(cliArgumentsOf(['--data-dir', '/tmp/store', 'list'])).toEqual(['--data-dir', '/tmp/store', 'list']);
    expect(cliArgumentsOf(['--data-dir=/tmp/store', '--no-sandbox', 'list', '--json'])).toEqual([
      '--data-dir=/tmp/store',
      'list',
      '--json',
    ]);
    expect(cliArgumentsOf(['--help'])).toEqual(['--help']);
  });

  it('reads argv after `electron .` in development', () => {
    expect(typedArguments(['/x/electron', '/repo', 'list'], true)).toEqual(['list']);
    expect(typedArguments([BINARY, 'list'], false)).toEqual(['list']);
  });

  it('stops quietly, exit 0, when the reader closes the pipe early (list | head -1)', () => {
    const { app, calls } = fakeApp();
    const d = deps([BINARY, 'list'], calls, () => new Promise(() => {}));
    startEntry(app, d);
    expect(d.pipes).toHaveLength(1);
    d.pipes[0]?.();
    expect(calls.slice(-2)).toEqual(['session removed', 'exit 0']);
  });

  it('exits 1 with a message when the CLI entry throws', async () => {
    const { app, calls } = fakeApp();
    const d = deps([BINARY, 'list'], calls, async () => {
      throw new Error('boom');
    });
    startEntry(app, d);
    await settle();
    expect(calls.at(-1)).toBe('exit 1');
    expect(d.errors.join('')).toContain('boom');
  });

  it('lets `serve` stop when the app is asked to quit, then exits with its code', async () => {
    const { app, calls, beforeQuit } = fakeApp();
    const d = deps([BINARY, 'serve'], calls, async (_argv, io) => {
      expect(await io.untilStopped?.()).toBe('quit');
      return 0;
    });
    startEntry(app, d);
    await settle();
    expect(calls).not.toContain('exit 0');
    let prevented = false;
    for (const listener of beforeQuit) listener({ preventDefault: () => (prevented = true) });
    await settle();
    expect(prevented).toBe(true);
    expect(calls.at(-1)).toBe('exit 0');
  });
});

describe('a CLI command stopped by a signal', () => {
  it('ends any command but serve at the first Ctrl-C with 130, SIGTERM with 143', async () => {
    for (const [signal, code] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const) {
      const { app, calls } = fakeApp();
      const d = deps([BINARY, '--data-dir', '/tmp/serve', 'install', 'x.apo'], calls, () => new Promise(() => {}));
      startEntry(app, d);
      expect(d.ran[0]?.io.untilStopped).toBeUndefined();
      for (const listener of d.signals) listener(signal);
      await settle();
      expect(calls.slice(-3)).toEqual(['flush', 'session removed', `exit ${code}`]);
    }
  });

  it('ends any command but serve with 130 when Electron turns the signal into a quit', async () => {
    const { app, calls, beforeQuit } = fakeApp();
    const d = deps([BINARY, 'list'], calls, () => new Promise(() => {}));
    startEntry(app, d);
    let prevented = false;
    for (const listener of beforeQuit) listener({ preventDefault: () => (prevented = true) });
    await settle();
    expect(prevented).toBe(true);
    expect(calls.at(-1)).toBe('exit 130');
  });

  it('lets serve stop cleanly on Ctrl-C and exit with its own code', async () => {
    const { app, calls } = fakeApp();
    const d = deps([BINARY, '--data-dir', '/tmp/x', 'serve'], calls, async (_argv, io) => {
      expect(await io.untilStopped?.()).toBe('SIGINT');
      return 0;
    });
    startEntry(app, d);
    await settle();
    expect(calls).not.toContain('exit 0');
    for (const listener of d.signals) listener('SIGINT');
    await settle();
    expect(calls.filter((call) => call.startsWith('exit'))).toEqual(['exit 0']);
  });

  it('names the command past the global options', () => {
    expect(commandOf(['--data-dir', 'serve', 'list'])).toBe('list');
    expect(commandOf(['--data-dir=/x', 'serve', '--port', '1'])).toBe('serve');
    expect(commandOf(['--help'])).toBeUndefined();
  });
});

describe('the app binary started without a CLI command', () => {
  it('refuses the window on the headless platform: a message and exit 1, no lock taken', () => {
    const { app, calls } = fakeApp();
    const d = { ...deps([BINARY], calls), headless: true };
    expect(startEntry(app, d)).toBe('no display');
    expect(calls).toEqual(['exit 1']);
    expect(d.errors.join('')).toContain('no display');
  });

  it('runs a command on the headless platform', () => {
    const { app, calls } = fakeApp();
    expect(startEntry(app, { ...deps([BINARY, '--ozone-platform=headless', 'list'], calls), headless: true })).toBe(
      'cli',
    );
  });

  it.each([
    ['no argument', [BINARY]],
    ['a double-clicked file', [BINARY, '/home/ada/Downloads/invoices.apo']],
    ['a file:// URI (the desktop entry’s %U)', [BINARY, 'file:///home/ada/Downloads/invoices.apo']],
    ['a file named like a command, given as a path', [BINARY, './inspect']],
    ['Chromium switches only', [BINARY, '--enable-logging', '--no-sandbox']],
    ['a word that is no command', [BINARY, 'inspekt', 'x.apo']],
  ])('%s: takes the lock and starts the app', (_name, argv) => {
    const { app, calls } = fakeApp();
    const d = deps(argv, calls);
    expect(startEntry(app, d)).toBe('app');
    expect(calls).toEqual(['lock', 'startApp']);
  });

  it('quits when another instance holds the lock (it gets our argv)', () => {
    const { app, calls } = fakeApp(false);
    expect(startEntry(app, deps([BINARY, '/home/ada/a.apo'], calls))).toBe('second-instance');
    expect(calls).toEqual(['lock', 'quit']);
  });
});
