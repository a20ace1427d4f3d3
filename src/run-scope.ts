/**
 * State that lasts one run of a command but lives in a module: whether a JSON document was written, which retries
 * were announced. A process normally runs one command and exits; one that runs several in turn (the test suite runs
 * the CLI in its workers) starts each with startRun(), which clears them all.
 */
const clears: Array<() => void> = [];

/** Registers `value` (a Set, a Map, anything with clear()) to be cleared when a run starts; returns it. */
export function runScoped<T extends { clear(): void }>(value: T): T {
  clears.push(() => value.clear());
  return value;
}

/** A new run: every run-scoped value is cleared. */
export function startRun(): void {
  for (const clear of clears) clear();
}
