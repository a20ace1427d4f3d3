/** The server's database when neither --db nor ALERTFORM_DB names one. */
export const DEFAULT_DB = './alertform.db';

/** What --db takes, for `serve` and `keys` alike. */
export const DB_OPTION_HELP = 'a SQLite file, :memory:, or postgres://USER[:PASSWORD]@HOST:PORT/DB';
