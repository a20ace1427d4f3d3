/** The server's database when neither --db nor ALERTFORM_DB names one. */
export const DEFAULT_DB = './alertform.db';

export const DB_OPTION_HELP = 'SQLite file, :memory:, or postgres://USER[:PASSWORD]@HOST:PORT/DB; env ALERTFORM_DB';

/** The database `serve` and `keys` open: --db, else ALERTFORM_DB, else ./alertform.db. */
export function resolveDb(option: string | undefined): string {
  return option ?? (process.env.ALERTFORM_DB || DEFAULT_DB);
}
