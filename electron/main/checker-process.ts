/**
 * Electron glue for the checker's process (DESIGN.md "Security of the app itself"): the app's
 * package checker runs its worker inside an Electron `utilityProcess` (`check-process.cjs`, built
 * beside main's chunks), so a crash or an out-of-memory abort while checking ends that process
 * only, and the package is refused. The relay and the checker's side are core, tested under Node.
 */
import { utilityProcess } from 'electron';
import { fileURLToPath } from 'node:url';
import { type CheckerSpawn, relaySpawn } from '../core/bounded/index';

/** The utility process's entry: `out/main/check-process.cjs` (inside the asar when packaged). */
export const CHECK_PROCESS_PATH = fileURLToPath(new URL('./check-process.cjs', import.meta.url));

/** Each checker worker in its own utility process. */
export function utilityProcessSpawn(): CheckerSpawn {
  return relaySpawn(() => {
    const child = utilityProcess.fork(CHECK_PROCESS_PATH, [], {
      serviceName: 'Apollia package checker',
      stdio: 'ignore',
    });
    return {
      post: (message) => child.postMessage(message),
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.on('exit', (code) => listener(code)),
      kill: () => child.kill(),
    };
  });
}
