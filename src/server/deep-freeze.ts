/**
 * Freezes `value` and everything it holds. For values one cache hands to many readers (alert records, parsed
 * definitions and states shared by every alert with the same text): a change in place then throws instead of
 * leaking into another reader's value.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
