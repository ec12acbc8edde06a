/**
 * A trigger's own name from its store id (`invoices/first-monday` → `first-monday`): the store id is not for people.
 */
export function triggerName(triggerId: string): string {
  return triggerId.slice(triggerId.lastIndexOf('/') + 1);
}
