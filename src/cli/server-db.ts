import { Option, type Command } from 'commander';
import { DB_OPTION_HELP, DEFAULT_DB } from './db-option.js';

/**
 * `--config FILE` (ALERTFORM_CONFIG) on the commands that open the server's database besides `serve` (keys,
 * backup): the same settings file serve reads, so that a key made with the systemd unit's or the image's
 * ALERTFORM_CONFIG lands in the database the server uses.
 */
export function serverConfigOption(): Option {
  return new Option('--config <file>', "the server's settings file (as for serve): its db, unless --db or ALERTFORM_DB names one").env('ALERTFORM_CONFIG');
}

/** --db, also from ALERTFORM_DB as for serve; its default is the settings file's db, then ./alertform.db. */
export function serverDbOption(help = `the server's database: ${DB_OPTION_HELP}`): Option {
  return new Option('--db <path-or-url>', `${help} (default: the --config file's db, else ${DEFAULT_DB})`).env('ALERTFORM_DB');
}

/**
 * The database the server runs on, as serve resolves it: --db, then ALERTFORM_DB, then the settings file's `db` (or
 * `db_file`, `${VAR}`s expanded; the file is checked as serve checks it), then ./alertform.db.
 */
export async function resolveServerDb(command: Command): Promise<string> {
  const options = command.opts<{ db?: string; config?: string }>();
  if (options.db !== undefined) return options.db;
  if (options.config !== undefined) {
    const { readServeConfig } = await import('./serve-config.js');
    const db = readServeConfig(options.config).values.get('db');
    if (typeof db === 'string') return db;
  }
  return DEFAULT_DB;
}
