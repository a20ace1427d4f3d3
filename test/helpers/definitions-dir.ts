import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shape of a generated definitions repo. */
export interface GeneratedDefinitions {
  alerts: number;
  channels: number;
  schedules: number;
  /** Changes thresholds and info of every `every`-th alert (0: none), so a second plan has updates. */
  changeEvery?: number;
  /** Leaves out the first N alerts (with prune on, a plan deletes them). */
  dropFirst?: number;
  /** Prefix of every name, and the prune pattern (default "gen-"). */
  prefix?: string;
  /** prune.max_deletes (default 1000). */
  maxDeletes?: number;
}

/**
 * Writes a definitions directory (alertform.yaml with prune on the prefix, channels.yaml, schedules.yaml,
 * alerts.yaml) of the given size: every alert uses one of the channels, every fifth one a schedule. Used by the
 * apply benchmark and the fault-injection test so both reconcile the same kind of repo.
 */
export function writeDefinitionsDir(dir: string, shape: GeneratedDefinitions): string {
  const prefix = shape.prefix ?? 'gen-';
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'alertform.yaml'),
    `server: http://127.0.0.1:8080\nprune:\n  match:\n    - "${prefix}*"\n  max_deletes: ${shape.maxDeletes ?? 1000}\n`,
  );
  const channels = Array.from({ length: shape.channels }, (_, i) => `${prefix}channel-${i}`);
  const schedules = Array.from({ length: shape.schedules }, (_, i) => `${prefix}schedule-${i}`);
  writeFileSync(
    join(dir, 'channels.yaml'),
    shape.channels === 0
      ? 'channels: []\n'
      : `channels:\n${channels
          .map((name, i) => `  - description: ${name}\n    type: webhook\n    destination: https://hooks.example.com/${i}\n`)
          .join('')}`,
  );
  writeFileSync(
    join(dir, 'schedules.yaml'),
    shape.schedules === 0
      ? 'schedules: []\n'
      : `schedules:\n${schedules
          .map((name, i) => `  - name: ${name}\n    start_time: "0${i % 10}:30"\n    duration: 30\n    repeat: [sat, sun]\n`)
          .join('')}`,
  );
  const alerts: string[] = [];
  for (let i = shape.dropFirst ?? 0; i < shape.alerts; i++) {
    const changed = shape.changeEvery ? i % shape.changeEvery === 0 : false;
    const channel = channels.length > 0 ? `\n    notification_channels: [${channels[i % channels.length]}]` : '';
    const schedule = schedules.length > 0 && i % 5 === 0 ? `\n    scheduled_mutes: [${schedules[i % schedules.length]}]` : '';
    alerts.push(
      `  - name: ${prefix}alert-${String(i).padStart(5, '0')}\n` +
        `    metric: gen.service${i % 50}.host${i}.cpu\n` +
        `    alert_criteria:\n      type: above\n      above_value: ${changed ? 95 : 90}\n      time_period: 5\n` +
        `    notification_type: [every, 60]${channel}${schedule}\n` +
        `    info: ${changed ? 'changed' : 'generated'} alert ${i}\n`,
    );
  }
  writeFileSync(join(dir, 'alerts.yaml'), alerts.length > 0 ? `alerts:\n${alerts.join('')}` : 'alerts: []\n');
  return dir;
}
