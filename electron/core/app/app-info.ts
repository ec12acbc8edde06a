/**
 * What the app tells about itself (Api `appInfo`): its version, the SDK it speaks, where its
 * secrets are kept, its command line and whether it runs without Chromium's sandbox. One home, so
 * the About box, the CLI hint and the sandbox warning read the same answer.
 */
import packageJson from '../../../package.json';
import { SDK_VERSION } from '../../../shared/manifests/sdk';
import type { ApiContext } from './context';

/**
 * The app's own facts, as the host gave them.
 * A host that names no command line is the installed app, whose command is `apollia-desktop`.
 */
export async function appInfo(ctx: ApiContext) {
  const { deps } = ctx;
  return {
    version: packageJson.version,
    sdkVersion: SDK_VERSION,
    secretBackend: deps.secretBox.backend(),
    cliProgram: deps.cliProgram === undefined ? 'apollia-desktop' : deps.cliProgram,
    sandboxOff: deps.sandboxOff === true,
  };
}
