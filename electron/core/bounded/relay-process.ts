/**
 * The checker's side of `check-process.ts`: a process that holds the bounded worker, seen as a
 * {@link CheckerProcess}. The app gives it Electron's `utilityProcess`; the tests a Node child
 * (`child_process.fork` with `serialization: 'advanced'`), which speaks the same messages.
 */
import type { CheckerProcess, CheckerSpawn } from './checker';
import type { CheckProcessError, CheckProcessInit } from './check-process';
import type { WorkerReply, WorkerRequest } from './protocol';

/** A started process running `check-process`, as its host sees it. */
export interface RelayChannel {
  post(message: CheckProcessInit | WorkerRequest): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The process ended (`code` null when a signal ended it). */
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
  /** Whether the process may keep this one alive (Node only; a utility process never does). */
  ref?(): void;
  unref?(): void;
}

/** A {@link CheckerSpawn} over processes made by `start`: the init message first, then the jobs. */
export function relaySpawn(start: () => RelayChannel): CheckerSpawn {
  return ({ workerData, resourceLimits }) => {
    const channel = start();
    channel.post({ type: 'init', workerData, resourceLimits });
    return relayProcess(channel);
  };
}

/**
 * The channel as a {@link CheckerProcess}: the worker's errors (its code kept) as `error`, its replies as `message`.
 */
export function relayProcess(channel: RelayChannel): CheckerProcess {
  const listeners = {
    message: [] as ((reply: WorkerReply) => void)[],
    error: [] as ((error: Error & { code?: string }) => void)[],
    exit: [] as ((code: number | null) => void)[],
  };
  channel.onMessage((message) => {
    const relayed = message as CheckProcessError | WorkerReply;
    if (relayed && (relayed as CheckProcessError).type === 'worker-error') {
      const { code, message: text } = relayed as CheckProcessError;
      const error: Error & { code?: string } = new Error(text);
      if (code !== null) error.code = code;
      for (const listener of listeners.error) listener(error);
      return;
    }
    for (const listener of listeners.message) listener(relayed as WorkerReply);
  });
  channel.onExit((code) => {
    for (const listener of listeners.exit) listener(code);
  });
  const process: CheckerProcess = {
    postMessage: (message) => channel.post(message),
    on: ((event: 'message' | 'error' | 'exit', listener: never) => {
      (listeners[event] as unknown[]).push(listener);
      return process;
    }) as CheckerProcess['on'],
    terminate: () => channel.kill(),
    ref: () => channel.ref?.(),
    unref: () => channel.unref?.(),
  };
  return process;
}
