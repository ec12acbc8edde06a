/**
 * Writing a key of package data as an own data property, whatever its name.
 *
 * `target[key] = value` with `key` `__proto__` does not make a key: it replaces the object's
 * prototype, so the value disappears from `Object.keys`, JSON and the strict schemas while a read of
 * any missing key still finds it. DESIGN.md "Parsed package data is plain
 * own-property data": `__proto__`, `constructor` and `prototype` are keys like any other, so every
 * copy of package data sets its keys with `Object.defineProperty`.
 */

/** Sets `target[key]` as an own, enumerable data property (never the prototype); returns `target`. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): Record<string, T> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/**
 * A null-prototype record holding `entries` as own data properties.
 *
 * Why: records keyed by names a package or a person chose (package names, agent and trigger ids,
 * MCP server names) must hold `__proto__`, `constructor` and `prototype` like any other name.
 * With no prototype, `record[key] = value` can never reach a setter and a
 * read of a missing key finds nothing inherited.
 */
export function ownRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) setOwn(record, key, value);
  return record;
}
