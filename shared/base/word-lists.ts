/**
 * Lists of names in a sentence, one way everywhere the app speaks: the verdicts, the plugin
 * summary, the pin sentences and the text-safety warnings.
 */

/** `a`, `a and b`, `a, b and c`. */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The first `max` names, and how many more there are: `a, b, c and 2 more`. */
export function someNames(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
