import { SENSITIVE } from '../redact/placeholder.js';
import type { Definitions } from './definitions.js';
import type { Problem } from './problems.js';

/**
 * The channel references of alerts (their `notification_channels` and escalation steps' `notify`) that no channel
 * of these files describes: each may be a channel made by hand on the server (by description or id), or a typo.
 * `validate` reads no server, so it names each where it is written; `plan` then checks the server and refuses the
 * ones it lacks. A reference written as `${VAR}` is shown as (sensitive).
 */
export function channelReferencesOutsideFiles(definitions: Definitions): Problem[] {
  const described = new Set([...definitions.channels.map((channel) => channel.key), ...(definitions.refusedChannels ?? [])]);
  const found: Problem[] = [];
  for (const alert of definitions.alerts) {
    const check = (ref: string, path: string) => {
      if (described.has(ref)) return;
      const shown = alert.sensitivePaths.includes(path) ? SENSITIVE : ref;
      found.push({ location: alert.locate(path), path: `${alert.path}.${path}`, message: `channel "${shown}" is not in these files: plan checks that the server has it` });
    };
    (alert.spec.notification_channels ?? []).forEach((ref, i) => check(ref, `notification_channels.${i}`));
    const steps = Array.isArray(alert.spec.escalation) ? alert.spec.escalation : [];
    steps.forEach((step, i) => (step.notify ?? []).forEach((ref, j) => check(ref, `escalation.${i}.notify.${j}`)));
  }
  for (const window of definitions.maintenanceWindows ?? []) {
    (window.spec.match.channels ?? []).forEach((ref, i) => {
      if (described.has(ref)) return;
      const path = `match.channels.${i}`;
      const shown = window.sensitivePaths.includes(path) ? SENSITIVE : ref;
      found.push({ location: window.locate(path), path: `${window.path}.${path}`, message: `channel "${shown}" is not in these files: plan checks that the server has it` });
    });
  }
  return found;
}
