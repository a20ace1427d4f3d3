/**
 * A backend's concern store from its rows file: every exported function whose first parameter is the database,
 * with that database given and its answer made a promise (SQLite's rows are synchronous). So a store method is
 * written once per backend, in its rows file, and a concern's interface (`<concern>-store.ts`) checks that the
 * rows file has it: a new method costs the interface and the two rows files, nothing more.
 */
export function bindRows<D, M extends object>(db: D, rows: M): BoundRows<D, M> {
  const bound: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, value] of Object.entries(rows)) {
    if (typeof value !== 'function') continue;
    const fn = value as (db: D, ...args: unknown[]) => unknown;
    // async: a synchronous throw (SQLite) becomes a rejection, as an async method's would.
    bound[name] = async (...args) => fn(db, ...args);
  }
  return bound as BoundRows<D, M>;
}

/** The functions of a rows module that take the database first, without it, answering promises. */
export type BoundRows<D, M> = {
  [K in keyof M as M[K] extends (db: D, ...args: never[]) => unknown ? K : never]: M[K] extends (db: D, ...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};
