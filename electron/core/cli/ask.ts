/**
 * A yes/no question asked in a terminal before a command does something the person may not mean (`trust remove`).
 * Asked only when standard input and standard error are a terminal; a script gets no answer (null) and must say
 * `--yes` instead, so nothing is ever decided by a closed or piped stdin.
 */
import { createInterface } from 'node:readline/promises';
import type { CliIo } from './cli-io';

/** The person's answer: true for y/yes, false for anything else, null when no one can be asked. */
export async function askYesNo(io: CliIo, question: string): Promise<boolean | null> {
  const answer = io.ask ? await io.ask(question) : await askTerminal(question);
  if (answer === null) return null;
  return /^\s*(y|yes)\s*$/i.test(answer);
}

async function askTerminal(question: string): Promise<string | null> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return null;
  const lines = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await lines.question(question);
  } finally {
    lines.close();
  }
}
