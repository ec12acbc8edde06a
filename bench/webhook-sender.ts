/**
 * The bench's sender as a process of its own (`WEBHOOK_BENCH_SENDER=process`, started by `startSender` in
 * `webhook-intake-parts.ts` with the parent's loader flags): the same {@link send}, fed over its input. A line
 * `{url, items}` loads a round (it answers `ready`), a line `go` sends it (it answers the {@link Sent} as one line of
 * JSON); the end of its input ends it.
 */
import { createInterface } from 'node:readline';
import { type Signed, send } from './webhook-intake-parts';

let job: { url: string; items: Signed[] } | null = null;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (job === null) {
    job = JSON.parse(line) as { url: string; items: Signed[] };
    process.stdout.write('ready\n');
    return;
  }
  const { url, items } = job;
  job = null;
  void send(url, items).then((sent) => process.stdout.write(`${JSON.stringify(sent)}\n`));
});
lines.on('close', () => process.exit(0));
