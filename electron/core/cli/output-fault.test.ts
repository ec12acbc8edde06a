/**
 * Output that cannot be written (entry.ts `quietOnBrokenPipe`): a closed pipe stops quietly with the status set so
 * far; a write failing for another reason (EIO, ENOSPC under a redirect) stops with status 1, and neither throws
 * (which Node would print as a stack trace).
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { quietOnBrokenPipe } from './entry';

function failing(code: string, exitCode?: number) {
  const stream = new EventEmitter();
  const status: { exitCode?: number } = exitCode === undefined ? {} : { exitCode };
  let stopped = 0;
  quietOnBrokenPipe(stream as never, () => stopped++, status);
  const error = Object.assign(new Error(`${code}: write`), { code });
  expect(() => stream.emit('error', error)).not.toThrow();
  return { stopped, exitCode: status.exitCode };
}

describe('output that cannot be written', () => {
  it('a closed pipe: stops, the status left as it was', () => {
    expect(failing('EPIPE')).toEqual({ stopped: 1, exitCode: undefined });
    expect(failing('EPIPE', 0)).toEqual({ stopped: 1, exitCode: 0 });
  });

  it('a full disk or a failing device: stops with status 1, or the failure already set', () => {
    expect(failing('ENOSPC')).toEqual({ stopped: 1, exitCode: 1 });
    expect(failing('EIO', 0)).toEqual({ stopped: 1, exitCode: 1 });
    expect(failing('EIO', 2)).toEqual({ stopped: 1, exitCode: 2 });
  });
});
