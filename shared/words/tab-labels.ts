/**
 * What an opened file's tab says: its name, and when another open file has the same name, the
 * fewest folders (nearest first) that tell them apart, so two `quiet.apo` never look the same.
 * Pure, linear in the number of open files and their folders.
 */

/** An opened source as its tab needs it (`SourceHandle`'s display fields). */
export interface TabSource {
  id: string;
  displayName: string;
  /** The folders that hold it, outermost first. */
  folders: readonly string[];
}

/** A tab's words: the name, and the folders that tell it apart (null when its name is alone). */
export interface TabLabel {
  name: string;
  /** `Downloads`, `old/Downloads`: the folder path's shortest ending no other same-named source shares. */
  where: string | null;
}

/** Each source's tab label, by id. */
export function tabLabels(sources: readonly TabSource[]): Map<string, TabLabel> {
  const byName = new Map<string, TabSource[]>();
  for (const source of sources) {
    const same = byName.get(source.displayName);
    if (same) same.push(source);
    else byName.set(source.displayName, [source]);
  }
  const labels = new Map<string, TabLabel>();
  for (const [name, same] of byName) {
    if (same.length === 1) {
      labels.set((same[0] as TabSource).id, { name, where: null });
      continue;
    }
    for (const source of same) labels.set(source.id, { name, where: distinguishingFolders(source, same) });
  }
  return labels;
}

/**
 * The shortest ending of `source`'s folders that no other source in `same` ends with; all of them when none is enough.
 */
function distinguishingFolders(source: TabSource, same: readonly TabSource[]): string {
  const ending = (folders: readonly string[], count: number) =>
    folders.slice(Math.max(0, folders.length - count)).join('/');
  for (let count = 1; count <= source.folders.length; count++) {
    const mine = ending(source.folders, count);
    if (same.every((other) => other === source || ending(other.folders, count) !== mine)) return mine;
  }
  return source.folders.length === 0 ? 'built in' : `/${source.folders.join('/')}`;
}
