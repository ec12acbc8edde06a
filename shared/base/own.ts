/** Reading a record by a key that came from outside (a manifest, the renderer, a file). */
/**
 * `record[key]` only when it is the record's own: ids and names come from the renderer (and from
 * manifests), and `constructor` or `__proto__` must find nothing, never an inherited property.
 */
export function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
