/**
 * Checking one stream of the activity record against its key and its head (DESIGN.md "Triggers at
 * run time", the activity record: `activity verify` says what it proved and where it breaks). Each
 * break is named by its kind (`BreakKind`): a changed line (one link fails), lines missing at the
 * end (the head counts more), a record deleted (the head or the key says there was one), a record
 * replaced (no link holds under this folder's key, or the head's line is not in it), a chain
 * recomputed without the key (every link from some line on fails). Pure: no I/O.
 */
import {
  type BreakKind,
  type ChainBreak,
  chainFields,
  GENESIS,
  mac,
  type ReadLine,
  type RecordHead,
  type RecordStream,
  sha256,
  startMac,
} from './record-chain';

/** Where the head compared against came from: the store's commit, the sealed head file, or nowhere. */
export type HeadSource = 'committed' | 'sealed' | 'none';

/** What {@link verifyStream} proved for one stream. */
export interface ChainReport {
  intact: boolean;
  /** Lines read. */
  entries: number;
  /** The files read, oldest first, relative to the data folder. */
  files: string[];
  /** The first break, or null. */
  broken: ChainBreak | null;
  /** The head of what was read (count: the last line's place in the stream), or null when broken or empty. */
  head: RecordHead | null;
  /** The head the record was compared with, and where it came from. */
  expectedHead: RecordHead | null;
  headSource: HeadSource;
  /** The place of the first keyed line (after the recorded move), or null when none. */
  keyedFrom: number | null;
  /** The time and place of the first and last line read. */
  first: { seq: number; at: string } | null;
  last: { seq: number; at: string } | null;
  /** Traffic: lines rotated out before the first kept one (explained by a recorded rotation). */
  rotatedOut: number;
  /** Lines after the head (written after it was sealed; each carries the key's HMAC). */
  afterHead: number;
}

/** What {@link verifyStream} checks. */
export interface VerifyInput {
  stream: RecordStream;
  /** The record key, or null when `record.key` is missing. */
  key: Uint8Array | null;
  lines: readonly ReadLine[];
  head: RecordHead | null;
  headSource: HeadSource;
  /** A record was kept here (the key exists, or the store names packages): an empty one was deleted. */
  expectRecord: boolean;
  /** Traffic: the recorded rotations, each the place of the last line dropped and the HMAC the next line carries. */
  rotations?: readonly RecordHead[];
  /** Where the record lives, for a break of the whole record. */
  dir: string;
}

const atOf = (text: string): string => {
  try {
    const at = (JSON.parse(text) as { at?: unknown }).at;
    return typeof at === 'string' ? at : '';
  } catch {
    return '';
  }
};

interface Link {
  index: number;
  ok: boolean;
  plainSha: boolean;
}

/** Checks one stream; see the module's comment for the kinds of break. */
export function verifyStream(input: VerifyInput): ChainReport {
  const { lines, key } = input;
  const report: ChainReport = {
    intact: true,
    entries: lines.length,
    files: [...new Set(lines.map((l) => l.file))],
    broken: null,
    head: null,
    expectedHead: input.head,
    headSource: input.headSource,
    keyedFrom: null,
    first: null,
    last: null,
    rotatedOut: 0,
    afterHead: 0,
  };
  const fail = (kind: BreakKind, at: { file: string; line: number }, reason: string): ChainReport => ({
    ...report,
    intact: false,
    head: null,
    broken: { kind, file: at.file, line: at.line, reason },
  });
  if (lines.length === 0) {
    const gone = emptyBreak(input);
    return gone ? fail('deleted', { file: input.dir, line: 0 }, gone) : report;
  }
  const links: Link[] = [];
  let prevText: string | null = null;
  let prevSeq = 0;
  for (let i = 0; i < lines.length; i++) {
    const read = lines[i] as ReadLine;
    const fields = chainFields(read.text);
    if (fields === null || (fields.hmac === undefined && fields.prev === undefined))
      return fail('changed', read, 'not an activity entry (changed by hand, or a write cut short)');
    if (fields.hmac === undefined) {
      // A plain line (before the record was keyed): only at the start of a stream.
      if (report.keyedFrom !== null)
        return fail(
          'recomputed',
          read,
          'it carries a plain SHA-256, not the record key’s HMAC: written without the key',
        );
      // Traffic of earlier versions was rotated without a record: its oldest plain line may follow lines gone.
      const rotatedPlain = prevText === null && input.stream === 'traffic';
      if (!rotatedPlain && fields.prev !== (prevText === null ? GENESIS : sha256(prevText)))
        return fail(
          'changed',
          read,
          `it does not follow ${prevText === null ? 'the start of the record' : `line ${read.line - 1}`} (the part chained before the record was keyed)`,
        );
      prevSeq++;
    } else {
      if (key === null)
        return fail(
          'replaced',
          read,
          'record.key is gone: the keyed lines cannot be checked (the key was deleted or replaced)',
        );
      const seq = fields.seq ?? -1;
      let expected: string | null;
      if (report.keyedFrom === null) {
        report.keyedFrom = seq;
        if (prevText !== null) {
          if (input.stream === 'decisions' && fields.kind !== 'record_keyed')
            return fail(
              'recomputed',
              read,
              'plain SHA-256 lines before it, and no recorded move to the keyed chain: written without the key',
            );
          expected = mac(key, prevText);
        } else if (seq > 1 && input.stream === 'traffic') {
          const rotation = input.rotations?.find((r) => r.count === seq - 1);
          if (!rotation)
            return fail(
              'cut',
              read,
              `the first kept traffic entry is number ${seq}, and no recorded rotation explains the ${seq - 1} before it`,
            );
          report.rotatedOut = seq - 1;
          expected = rotation.last;
        } else expected = startMac(key, input.stream);
      } else expected = mac(key, prevText as string);
      if (i > 0 && seq !== prevSeq + 1)
        return fail(
          'changed',
          read,
          `it is entry ${seq} and follows entry ${prevSeq}: ${seq > prevSeq ? 'entries were removed' : 'entries were inserted or moved'}`,
        );
      links.push({
        index: i,
        ok: fields.hmac === expected,
        plainSha: prevText !== null && fields.hmac === sha256(prevText),
      });
      prevSeq = seq;
    }
    prevText = read.text;
  }
  const lastRead = lines.at(-1) as ReadLine;
  const computed: RecordHead = { count: prevSeq, last: key ? mac(key, lastRead.text) : sha256(lastRead.text) };
  // The head is the last link: the HMAC it sealed must be that of the last line.
  const head = input.head;
  if (head && report.keyedFrom !== null && head.count === computed.count)
    links.push({ index: lines.length, ok: head.last === computed.last, plainSha: false });
  const broken =
    linkBreak(input, links, lastRead) ??
    (key !== null && report.keyedFrom !== null ? headBreak(input, key, computed) : null);
  if (broken && 'kind' in broken) return fail(broken.kind, broken, broken.reason);
  if (broken) report.afterHead = broken.afterHead;
  report.head = computed;
  report.first = { seq: prevSeq - lines.length + 1, at: atOf(lines[0]?.text ?? '') };
  report.last = { seq: prevSeq, at: atOf(lastRead.text) };
  return report;
}

/** The first failing link named by its kind: one link is a changed line; every link from one on, a recomputed or replaced chain. */
function linkBreak(input: VerifyInput, links: readonly Link[], lastRead: ReadLine): ChainBreak | null {
  const { lines } = input;
  const firstBad = links.findIndex((l) => !l.ok);
  if (firstBad < 0) return null;
  const bad = links[firstBad] as Link;
  const rest = links.slice(firstBad);
  const at = bad.index < lines.length ? (lines[bad.index] as ReadLine) : { file: lastRead.file, line: 0 };
  const plain = bad.plainSha ? ' (it carries a plain SHA-256)' : '';
  const where = { file: at.file, line: at.line };
  if (rest.length >= 2 && rest.every((l) => !l.ok))
    return firstBad === 0
      ? {
          kind: 'replaced',
          ...where,
          reason: `no line of it was made with this folder's record key${plain}: the record was replaced, or rewritten without the key`,
        }
      : {
          kind: 'recomputed',
          ...where,
          reason: `every link from here on fails under the record key${plain}: the chain from line ${at.line} on was recomputed without it`,
        };
  return bad.index < lines.length
    ? {
        kind: 'changed',
        ...where,
        reason: `it does not follow line ${at.line - 1}${plain}: that line was changed, or a line removed or inserted`,
      }
    : {
        kind: 'changed',
        file: lastRead.file,
        line: lastRead.line,
        reason: `the last entry is not the one the ${input.headSource} head sealed: it was changed`,
      };
}

/** The record's end against its head: missing head, lines cut from the end, a head's line not in the record; or lines after the head. */
function headBreak(
  input: VerifyInput,
  key: Uint8Array,
  computed: RecordHead,
): ChainBreak | { afterHead: number } | null {
  const { head, lines } = input;
  const lastRead = lines.at(-1) as ReadLine;
  const end = { file: lastRead.file, line: lastRead.line };
  if (!head)
    return {
      kind: 'head',
      file: input.dir,
      line: 0,
      reason: `the ${input.stream}' sealed head is missing: whether lines were cut from the end cannot be told`,
    };
  if (computed.count < head.count)
    return {
      kind: 'cut',
      ...end,
      reason: `${head.count - computed.count} entries are missing at the end: the ${input.headSource} head counts ${head.count}, the record ends at ${computed.count}`,
    };
  if (computed.count === head.count) return null;
  const sealed = lines.find((l) => chainFields(l.text)?.seq === head.count);
  if (head.count > 0 && (!sealed || mac(key, sealed.text) !== head.last))
    return {
      kind: 'replaced',
      file: input.dir,
      line: 0,
      reason: `the entry the ${input.headSource} head sealed (number ${head.count}) is not in the record`,
    };
  return { afterHead: computed.count - head.count };
}

/** Why an empty stream is a deleted one: its head counts entries, or the folder kept a record. */
function emptyBreak(input: VerifyInput): string | null {
  if ((input.head?.count ?? 0) > 0)
    return `the ${input.stream} are gone: the ${input.headSource} head counts ${input.head?.count} entries`;
  if (input.expectRecord && input.stream === 'decisions')
    return 'this folder kept a record (its record key, or its packages, say so), and the record is gone';
  return null;
}
