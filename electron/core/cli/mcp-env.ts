/**
 * An MCP server's environment from a file or standard input (`mcp add --env-file FILE`, `--env-stdin`): a credential
 * given as `--env KEY=VALUE` shows in the process list and stays in the shell history, as a webhook secret would
 * (the same reason `--webhook-secret` takes no value). One `KEY=VALUE` a line, as a `.env` file: blank lines and `#`
 * comments skipped, an `export ` before the key and quotes around the value allowed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { CliIo } from './cli-io';
import { stdinText } from './webhook-secret-options';

/** A name an environment variable may have. */
export const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The `KEY=VALUE` lines of `text`, or the problem of the first line that is none (named by `where` and its number). */
export function envLines(text: string, where: string): { env: string[] } | { problem: string } {
  const env: string[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim().replace(/^export\s+/, '');
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const key = eq > 0 ? line.slice(0, eq).trim() : '';
    // The line's value is never echoed: it may be the credential itself.
    if (!ENV_KEY.test(key)) return { problem: `${where}, line ${i + 1}: not KEY=VALUE (KEY of letters, digits and _)` };
    const value = line.slice(eq + 1).trim();
    const unquoted = /^(["'])(.*)\1$/.exec(value)?.[2] ?? value;
    env.push(`${key}=${unquoted}`);
  }
  return { env };
}

/** The environment of each `--env-file` and of `--env-stdin`, in the order given, or the problem found. */
export async function readEnvSources(
  io: CliIo,
  files: readonly string[],
  stdin: boolean,
): Promise<{ env: string[] } | { problem: string }> {
  const env: string[] = [];
  for (const file of files) {
    const path = isAbsolute(file) ? file : resolve(io.cwd, file);
    if (!existsSync(path) || !statSync(path).isFile()) return { problem: `no such file: ${file}` };
    const read = envLines(readFileSync(path, 'utf8'), file);
    if ('problem' in read) return read;
    env.push(...read.env);
  }
  if (stdin) {
    const read = envLines(await stdinText(io), 'standard input');
    if ('problem' in read) return read;
    env.push(...read.env);
  }
  return { env };
}
