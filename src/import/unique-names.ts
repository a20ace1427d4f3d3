import type { ImportedRule } from './import-types.js';

/**
 * Alert names are unique per account: a second rule with the same title gets its source id after it
 * (`Disk full [a1b2c3d4]`), the first keeps the title. Rules are in a stable order, so the names are too.
 */
export function uniqueAlertNames(rules: ImportedRule[]): void {
  const taken = new Set<string>();
  for (const rule of rules) {
    for (const alert of rule.alerts) {
      if (taken.has(alert.name)) {
        const suffix = ` [${rule.sourceId.slice(0, 12) || 'copy'}]`;
        let name = `${alert.name.slice(0, 255 - suffix.length)}${suffix}`;
        for (let n = 2; taken.has(name); n += 1) name = `${alert.name.slice(0, 240)}${suffix} ${n}`;
        rule.comments.push(`renamed from "${alert.name}": another imported rule has that name`);
        alert.name = name;
      }
      taken.add(alert.name);
    }
  }
}
