import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { CliError } from '../errors.js';
import { writeJson } from '../json-output.js';
import { writePrivateFile } from '../private-file.js';
import { resolveServerDb, serverConfigOption, serverDbOption } from '../server-db.js';

/** `alertform backup --out FILE`: a consistent copy of the server's SQLite database, safe while it runs. */
export function registerBackupCommand(program: Command): void {
  program
    .command('backup')
    .description("copy the bundled server's SQLite database to a file, while the server runs (SQLite online backup)")
    .requiredOption('--out <file>', 'the copy to write, mode 0600 (must not exist; a symbolic link is refused)')
    .addOption(serverDbOption('SQLite database of the server'))
    .addOption(serverConfigOption())
    .addHelpText(
      'after',
      `
The copy is a consistent snapshot even under writes. It holds destinations, PagerDuty keys and keys' hashes, so it
is written readable by its owner only (0600), as a new file: an existing file or a symbolic link at --out is
refused. To restore, stop the server and put the file in place of the
database. The database is the server's: --db, else ALERTFORM_DB, else the db of the settings file --config or
ALERTFORM_CONFIG names (as serve reads it), else ./alertform.db. For PostgreSQL, use pg_dump (e.g. pg_dump --format=custom "$ALERTFORM_DB" > alertform.dump).

Examples:
  $ alertform backup --out /var/backups/alertform-$(date +%F).db --db /var/lib/alertform/alertform.db
  $ ALERTFORM_DB=/var/lib/alertform/alertform.db alertform backup --out backup.db --json
  $ alertform backup --config /etc/alertform/alertform-server.yaml --out backup.db`,
    )
    .action(async (_opts: unknown, command: Command) => {
      const { optionsOf, writeOut } = await import('../context.js');
      const opts = { ...optionsOf<{ out: string; json?: boolean }>(command), db: await resolveServerDb(command) };
      if (/^postgres(ql)?:\/\//i.test(opts.db)) {
        throw new CliError('backup copies SQLite databases; for PostgreSQL use pg_dump (pg_dump --format=custom "$ALERTFORM_DB" > alertform.dump)');
      }
      if (opts.db === ':memory:' || !existsSync(opts.db)) throw new CliError(`no database at ${opts.db} (pass --db PATH or set ALERTFORM_DB)`);
      const { openSqliteStore } = await import('../../server/store/sqlite/sqlite-store.js');
      let store;
      try {
        store = openSqliteStore(opts.db);
      } catch (error) {
        throw new CliError(`cannot open database ${opts.db}: ${(error as Error).message}`);
      }
      let bytes: number;
      try {
        bytes = await writePrivateFile(opts.out, (scratch) => store.backup(scratch));
      } catch (error) {
        if (error instanceof CliError) throw error;
        throw new CliError(`cannot write ${opts.out}: ${(error as Error).message}`);
      } finally {
        await store.close();
      }
      if (opts.json) await writeJson({ db: opts.db, out: opts.out, bytes });
      else await writeOut(`Backed up ${opts.db} to ${opts.out} (${bytes} bytes)\n`);
    });
}
