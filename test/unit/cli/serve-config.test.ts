import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { applyServeConfig, readServeConfig } from '../../../src/cli/serve-config.js';
import { SERVE_OPTIONS, addServeOptions, configKey } from '../../../src/cli/serve-options.js';
import { describeServeSettings, maskSecret } from '../../../src/cli/serve-print-config.js';

const dir = mkdtempSync(join(tmpdir(), 'alertform-serve-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function configFile(text: string): string {
  const path = join(dir, `config-${(files += 1)}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** The serve command's options as commander parses them from `args` and `env`, with `config` applied. */
function parsed(args: string[], env: Record<string, string>, config?: string) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const command = addServeOptions(new Command('serve').exitOverride());
    command.parse(args, { from: 'user' });
    if (config) applyServeConfig(command, readServeConfig(config, env));
    return command;
  } finally {
    for (const name of Object.keys(env)) if (!(name in saved)) delete process.env[name];
  }
}

/** The message of the error `run` throws (it must throw). */
function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('serve --config', () => {
  it('has a schema key for every serve option (snake_case), and a _file key for exactly the secret ones', () => {
    const schema = JSON.parse(readFileSync(new URL('../../../schemas/serve-config.schema.json', import.meta.url), 'utf8')) as { properties: Record<string, unknown> };
    const options = SERVE_OPTIONS.filter((spec) => spec.flags !== '--config <file>');
    const expected = [
      ...options.map(configKey),
      ...options.filter((spec) => spec.secret).map((spec) => `${configKey(spec)}_file`),
      'api_keys',
    ].sort();
    expect(Object.keys(schema.properties).sort()).toEqual(expected);
    expect(configKey({ flags: '--no-console', env: '', description: '' })).toBe('console');
  });

  it('reads every kind of value: text, numbers, durations, booleans, lists, ${VAR} and ${VAR:-default}, secrets from files', () => {
    writeFileSync(join(dir, 'smtp-url'), 'smtp://mailer:s3cret@mail.example:587\n');
    const path = configFile(
      [
        'host: 0.0.0.0',
        'port: 9090',
        'db: postgres://alertform:${DB_PASSWORD}@db.internal:5432/alertform',
        'console: false',
        'eval_interval: 15s',
        'delivery_max_age: 7200',
        'graphite_url: ${GRAPHITE:-http://127.0.0.1:8000}',
        'smtp_url_file: smtp-url',
        'api_keys: ["${KEY_ONE}", literal-key-0123456789abcdef]',
        'api_key_file: keys',
        'allow_private_destinations: [10.0.0.0/8, graphite.internal]',
        'max_alerts_per_account: 50',
        '',
      ].join('\n'),
    );
    const config = readServeConfig(path, { DB_PASSWORD: 'pw', KEY_ONE: 'env-key-0123456789abcdefghij' });
    expect(Object.fromEntries(config.values)).toEqual({
      host: '0.0.0.0',
      port: '9090',
      db: 'postgres://alertform:pw@db.internal:5432/alertform',
      console: false,
      evalInterval: '15s',
      deliveryMaxAge: '7200',
      graphiteUrl: 'http://127.0.0.1:8000',
      smtpUrl: 'smtp://mailer:s3cret@mail.example:587',
      apiKeyFile: join(dir, 'keys'),
      allowPrivateDestinations: '10.0.0.0/8,graphite.internal',
      maxAlertsPerAccount: '50',
    });
    expect(config.apiKeys).toEqual(['env-key-0123456789abcdefghij', 'literal-key-0123456789abcdef']);
  });

  it('says every problem at file:line:column: unknown keys where the key is, bad values, unset variables, both a value and its file', () => {
    const path = configFile(
      ['port: 99999', 'graphit_url: http://x', 'eval_interval: soon', 'metrics_token: ${UNSET_TOKEN}', 'db: a.db', 'db_file: db-url', 'smtp_url: http://mail', ''].join('\n'),
    );
    expect(errorOf(() => readServeConfig(path, {})).split('\n')).toEqual([
      `${path}:1:7  port  must be at most 65535`,
      `${path}:2:1  graphit_url  unknown field "graphit_url"`,
      `${path}:3:16  eval_interval  must be a duration such as 90s, 15m, 2h or 1h30m`,
      `${path}:4:16  metrics_token  the environment variable UNSET_TOKEN is not set (write \${NAME:-default} for a default)`,
      `${path}:7:11  smtp_url  must be an smtp:// or smtps:// URL`,
    ]);
    // Values valid each on their own, together refused: and a secret file that is not there.
    const both = configFile('db: a.db\ndb_file: db-url\nmetrics_token_file: missing-token\n');
    expect(errorOf(() => readServeConfig(both, {})).split('\n')).toEqual([
      `${both}:2:10  db_file  give db or db_file, not both`,
      `${both}:3:21  metrics_token_file  cannot read ${join(dir, 'missing-token')}: ENOENT`,
    ]);
    const broken = configFile('port: [1\n');
    expect(errorOf(() => readServeConfig(broken, {}))).toMatch(new RegExp(`^${broken}:2:1  \\.  `));
    expect(errorOf(() => readServeConfig(join(dir, 'none.yaml'), {}))).toBe(`--config ${join(dir, 'none.yaml')}: ENOENT`);
  });

  it('comes after flags and variables, before defaults', () => {
    const path = configFile('host: 0.0.0.0\nport: 9090\ndb: from-file.db\nlog_level: debug\n');
    const command = parsed(['--port', '7000'], { ALERTFORM_DB: 'from-env.db' }, path);
    expect(command.opts()).toMatchObject({ port: '7000', db: 'from-env.db', host: '0.0.0.0', logLevel: 'debug', evalInterval: '30' });
    expect(command.getOptionValueSource('port')).toBe('cli');
    expect(command.getOptionValueSource('db')).toBe('env');
    expect(command.getOptionValueSource('host')).toBe('config');
    expect(command.getOptionValueSource('evalInterval')).toBe('default');
  });
});

describe('serve --print-config', () => {
  it('shows the merged settings with their origins, every secret masked, as a file --config reads back', () => {
    writeFileSync(join(dir, 'token'), 'metrics-token-value\n');
    const path = configFile(
      [
        'db: postgres://alertform:db-password@db.internal:5432/alertform',
        'metrics_token_file: token',
        'heartbeat_url: https://hc-ping.com/0f9c2b8e-secret-uuid',
        'allow_private_destinations: [10.0.0.0/8]',
        'console: false',
        '',
      ].join('\n'),
    );
    const command = parsed(['--smtp-url', 'smtp://user:smtp-password@mail.example:25'], { ALERTFORM_LOG_LEVEL: 'warn' }, path);
    const printed = describeServeSettings(command, { fromArgs: 0, fromFiles: 0, fromEnv: 2, fromConfig: 1 });
    for (const secret of ['db-password', 'metrics-token-value', '0f9c2b8e', 'smtp-password']) expect(printed).not.toContain(secret);
    expect(printed).toContain('db: "postgres://***@db.internal:5432/…"  # config file\n');
    expect(printed).toContain('metrics_token: "(secret)"  # config file\n');
    expect(printed).toContain('heartbeat_url: "https://hc-ping.com/…"  # config file\n');
    expect(printed).toContain('smtp_url: "smtp://***@mail.example:25"  # flag --smtp-url\n');
    expect(printed).toContain('log_level: warn  # ALERTFORM_LOG_LEVEL\n');
    expect(printed).toContain('host: 127.0.0.1  # default\n');
    expect(printed).toContain('allow_private_destinations: [10.0.0.0/8]  # config file\n');
    expect(printed).toContain('console: false  # config file\n');
    expect(printed).toContain('# API keys: 3 (1 from the config file, 2 from ALERTFORM_API_KEYS), not shown\n');
    // Read back, it is a valid config of the same settings (the secrets as their masks).
    const again = readServeConfig(configFile(printed), {});
    expect(again.values.get('logLevel')).toBe('warn');
    expect(again.values.get('allowPrivateDestinations')).toBe('10.0.0.0/8');
    expect(again.values.get('console')).toBe(false);
  });

  it('masks a token entirely and a URL down to its scheme and host; a SQLite path holds no secret', () => {
    expect(maskSecret({ secret: 'token' }, 'abc')).toBe('(secret)');
    expect(maskSecret({ secret: 'url' }, 'http://graphite:8000')).toBe('http://graphite:8000');
    expect(maskSecret({ secret: 'url' }, 'https://user:pw@graphite.example/render?key=k')).toBe('https://***@graphite.example/…');
    expect(maskSecret({ secret: 'url' }, '/var/lib/alertform/alertform.db')).toBe('/var/lib/alertform/alertform.db');
    expect(maskSecret({ secret: 'url' }, ':memory:')).toBe(':memory:');
  });
});
