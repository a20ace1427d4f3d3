/*
 * A render request's query, written as URLSearchParams writes it. By hand because URLSearchParams cost an object,
 * a list and an encode call per target per request (and its code was deoptimized at every collection between
 * cycles); a plain Graphite path needs no escaping at all.
 */

/** `from`, `until`, `maxDataPoints` and `format`, in URLSearchParams' order and encoding. */
export function rangeQuery(range: { fromMinutes: number; maxDataPoints?: number | undefined }): string {
  const points = range.maxDataPoints ? `&maxDataPoints=${formValue(String(range.maxDataPoints))}` : '';
  return `from=${formValue(`-${range.fromMinutes}min`)}&until=now${points}&format=json`;
}

/** Characters application/x-www-form-urlencoded leaves as they are. */
export const PLAIN_VALUE = /^[A-Za-z0-9*._-]*$/;

/** A query value as URLSearchParams writes it (space as `+`, `~` and `'` escaped, lone surrogates as U+FFFD). */
export function formValue(value: string): string {
  return PLAIN_VALUE.test(value) ? value : new URLSearchParams([['', value]]).toString().slice(1);
}
