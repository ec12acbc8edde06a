import type { AccessRow } from '../../../../shared/decisions/access-rows';
import type { Permission } from '../../../../shared/decisions/decisions';
import { PackageText } from '../../components/PackageText';
import { countOf } from './UpdateMark';

/**
 * Rows a long list of the consent form shows before "Show all": a package may offer thousands of
 * entries, and drawing them all at once makes the form stall. Nothing is hidden from consent: the
 * list's counts are shown above it and the rest is one press away.
 */
export const FIRST_ROWS = 50;

/**
 * The rows a collapsed list shows, in their own order: those `first(row)` puts first (an update's
 * new entries, an unticked one), then those `then(row)` puts next (a sensitive one granted), then the earliest
 * others, `FIRST_ROWS` in all.
 */
export function firstRows<T>(rows: readonly T[], first: (row: T) => boolean, then?: (row: T) => boolean): T[] {
  if (rows.length <= FIRST_ROWS) return [...rows];
  const picked = new Set<number>();
  for (const wanted of [first, then ?? (() => false), () => true])
    rows.forEach((row, i) => {
      if (picked.size < FIRST_ROWS && wanted(row)) picked.add(i);
    });
  return rows.filter((_, i) => picked.has(i));
}

/** Allowed, asking first, running unasked and not allowed, over every row of an agent. */
export function accessCounts(
  rows: readonly AccessRow[],
  permission: (entry: string) => Permission,
): { total: number; allowed: number; asks: number; unasked: number; denied: number } {
  let allowed = 0;
  let asks = 0;
  for (const row of rows) {
    const p = permission(row.entry);
    if (p === 'deny') continue;
    allowed++;
    if (p === 'ask') asks++;
  }
  return { total: rows.length, allowed, asks, unasked: allowed - asks, denied: rows.length - allowed };
}

/**
 * The counts in one sentence: "2,998 of 3,000 allowed (2,248 ask you first, 750 run without asking); 2 not allowed."
 */
export function accessCountsText(counts: ReturnType<typeof accessCounts>): string {
  const { total, allowed, asks, unasked, denied } = counts;
  const parts = [
    asks > 0 ? `${asks.toLocaleString('en-US')} ask you first` : '',
    unasked > 0 ? `${unasked.toLocaleString('en-US')} ${unasked === 1 ? 'runs' : 'run'} without asking` : '',
  ].filter(Boolean);
  return `${allowed.toLocaleString('en-US')} of ${countOf(total, 'entry', 'entries')} allowed${parts.length > 0 ? ` (${parts.join(', ')})` : ''}; ${denied.toLocaleString('en-US')} not allowed.`;
}

/** The "Show all N …" / "Show only the first 50" control of a long list; nothing for a short one. */
export function ShowAll({
  total,
  expanded,
  onToggle,
  controls,
  what,
}: {
  total: number;
  expanded: boolean;
  onToggle: () => void;
  controls: string;
  what: string;
}) {
  if (total <= FIRST_ROWS) return null;
  return (
    <div className="show-all">
      <button
        type="button"
        className="button button-small"
        aria-expanded={expanded}
        aria-controls={controls}
        onClick={onToggle}
      >
        {expanded ? `Show only the first ${FIRST_ROWS}` : `Show all ${total.toLocaleString('en-US')} ${what}`}
      </button>
      {expanded ? null : (
        <span className="small muted">
          Showing {FIRST_ROWS} of {total.toLocaleString('en-US')}.
        </span>
      )}
    </div>
  );
}

/** An access entry in words, its name below: the first lines of a row in the Access and Review steps. */
export function AccessEntryWords({ row }: { row: AccessRow }) {
  return (
    <>
      <PackageText text={row.what} />
      <span className="small muted block">
        <code>
          <PackageText text={row.entry} />
        </code>
      </span>
    </>
  );
}
