import type { Command } from 'commander';
import type { Quotas } from '../../model/defaults.js';
import { CliError } from '../errors.js';
import { readServeConfig } from '../serve-config.js';
import { LOG_LEVELS, SERVE_OPTIONS, attributeName } from '../serve-options.js';
import { assertStrongKey, positiveCount, readKeyFile } from './serve.js';

/**
 * What SIGHUP applies: the settings file (and the key file) read again, checked as at start. A value a flag or a
 * variable gave stays (neither can change in a running process); a key removed from the file falls back to its
 * default. Throws a CliError when the new settings are wrong: the running ones then stay.
 */
export function readReloadableSettings(
  command: Command,
  configPath: string | undefined,
  keysFromArgs: string[],
): { logLevel: string; apiKeys: string[]; quotas: Quotas } {
  const config = configPath !== undefined ? readServeConfig(configPath) : undefined;
  const value = (attribute: string): string | undefined => {
    const source = command.getOptionValueSource(attribute);
    if (source === 'cli' || source === 'env') return command.getOptionValue(attribute) as string;
    const fromFile = config?.values.get(attribute);
    return fromFile !== undefined ? String(fromFile) : SERVE_OPTIONS.find((spec) => attributeName(spec) === attribute)?.default;
  };
  const logLevel = value('logLevel')!;
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) throw new CliError(`log_level must be one of ${LOG_LEVELS.join(', ')}, not "${logLevel}"`);
  const keyFile = value('apiKeyFile');
  const fromEnv = (process.env.ALERTFORM_API_KEYS ?? '').split(',').map((key) => key.trim()).filter(Boolean);
  const apiKeys = [...keysFromArgs, ...(keyFile ? readKeyFile(keyFile) : []), ...fromEnv, ...(config?.apiKeys ?? [])];
  apiKeys.forEach(assertStrongKey);
  return {
    logLevel,
    apiKeys,
    quotas: {
      alerts: positiveCount('max_alerts_per_account', value('maxAlertsPerAccount')!),
      channels: positiveCount('max_channels_per_account', value('maxChannelsPerAccount')!),
      schedules: positiveCount('max_schedules_per_account', value('maxSchedulesPerAccount')!),
      pendingDeliveries: positiveCount('max_pending_deliveries_per_account', value('maxPendingDeliveriesPerAccount')!),
    },
  };
}
