/*
 * A render request's form body, written as URLSearchParams writes it. By hand because URLSearchParams cost an object,
 * a list and an encode call per target per request (and its code was deoptimized at every collection between
 * cycles); a plain Graphite path needs no escaping at all.
 */

/** `from`, `until`, `maxDataPoints` and `format`, in URLSearchParams' order and encoding. */
export function rangeQuery(range: { fromMinutes: number; maxDataPoints?: number | undefined }): string {
  const points = range.maxDataPoints ? `&maxDataPoints=${formValue(String(range.maxDataPoints))}` : '';
  return `from=${formValue(`-${range.fromMinutes}min`)}&until=now${points}&format=json`;
}

/**
 * The application/x-www-form-urlencoded body of one render request: every target, then the range
 * (`target=a&target=b&from=-5min&until=now&format=json`), byte for byte what URLSearchParams writes. ASCII only.
 */
export function renderForm(targets: readonly string[], range: { fromMinutes: number; maxDataPoints?: number | undefined }): string {
  let form = '';
  for (let i = 0; i < targets.length; i += 1) form += `target=${formValue(targets[i]!)}&`;
  return form + rangeQuery(range);
}

/** The bytes `target=VALUE&` adds to a body. */
export function targetFieldBytes(target: string): number {
  return 8 + formValue(target).length;
}

/** Characters application/x-www-form-urlencoded leaves as they are. */
export const PLAIN_VALUE = /^[A-Za-z0-9*._-]*$/;

/** A query value as URLSearchParams writes it (space as `+`, `~` and `'` escaped, lone surrogates as U+FFFD). */
export function formValue(value: string): string {
  return PLAIN_VALUE.test(value) ? value : new URLSearchParams([['', value]]).toString().slice(1);
}
