/**
 * Restores null prototypes on data that crossed a structured clone (DESIGN.md "Reading without
 * running": parsed package data is own-property data). A structured clone keeps Maps, arrays and
 * typed arrays, and keeps a `__proto__` key as an own data property, but it rebuilds every object
 * with `Object.prototype`, so `constructor` or `toString` would be found on an object that never
 * had them. This walks the value once and rebuilds each plain object with a null prototype,
 * defining (never assigning) each property so no key is ever taken for a setter.
 */
export function ownData<T>(value: T): T {
  return restore(value) as T;
}

function restore(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(restore);
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, restore(item)]));
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: restore((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}
