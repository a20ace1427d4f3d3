import { describe, expect, it } from 'vitest';
import { applyPlan, type ApplyEvent } from '../../../src/apply/run.js';
import { computePlan } from '../../../src/plan/compute.js';
import type { AlertformClient } from '../../../src/client/api.js';
import { definitionsOf, NOW, stateOf } from '../plan/fixtures.js';

/**
 * A recording stand-in for the client (the scheduler's rules are tested here; the real server is exercised in
 * test/integration/reconciler). `fail` names the objects whose calls fail.
 */
function recordingClient(fail: Set<string> = new Set(), delayMs = 5) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const call = (what: string, name: string, result: unknown) => async () => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, delayMs));
    inFlight -= 1;
    calls.push(`${what} ${name}`);
    if (fail.has(name)) throw new Error(`${name} refused`);
    return result;
  };
  const client = {
    createChannel: (b: { description: string }) => call('createChannel', b.description, `id-${b.description}`)(),
    createSchedule: (b: { name: string }) => call('createSchedule', b.name, `id-${b.name}`)(),
    createAlert: (b: { name: string; notification_channels: string[] }) => call('createAlert', `${b.name}<${b.notification_channels.join(',')}>`, `id-${b.name}`)(),
    muteAlert: (id: string, minutes: number) => call('muteAlert', `${id}/${minutes > 0}`, {})(),
  };
  return { client: client as unknown as AlertformClient, calls, maxInFlight: () => maxInFlight };
}

const DEFS = `
channels:
  - {description: good, type: email, destination: a@b.c}
  - {description: bad, type: email, destination: a@b.c}
alerts:
${Array.from({ length: 12 }, (_, i) => `  - {name: g${i}, metric: m, alert_criteria: {type: above, above_value: 1}, notification_channels: [good]}`).join('\n')}
  - {name: b0, metric: m, alert_criteria: {type: above, above_value: 1}, notification_channels: [bad], muted: {until: "2099-01-01T00:00:00Z"}}
`;

describe('applyPlan', () => {
  it('runs steps after what they depend on, with new ids in the bodies, never more than the concurrency at once', async () => {
    const plan = computePlan(definitionsOf(DEFS), stateOf(), NOW);
    const { client, calls, maxInFlight } = recordingClient();
    const events: ApplyEvent[] = [];
    const result = await applyPlan(plan, stateOf(), client, { concurrency: 3, onEvent: (e) => events.push(e) });
    expect(result.failed).toEqual([]);
    expect(result.done).toHaveLength(plan.changes.length);
    expect(events.every((e) => e.type === 'done')).toBe(true);
    expect(calls.indexOf('createAlert g0<id-good>')).toBeGreaterThan(calls.indexOf('createChannel good'));
    expect(calls.indexOf('muteAlert id-b0/true')).toBeGreaterThan(calls.indexOf('createAlert b0<id-bad>'));
    expect(maxInFlight()).toBeLessThanOrEqual(3);
  });

  it('skips what depends on a failed step, runs what does not, and reports all three', async () => {
    const plan = computePlan(definitionsOf(DEFS), stateOf(), NOW);
    const { client, calls } = recordingClient(new Set(['bad']));
    const result = await applyPlan(plan, stateOf(), client);
    expect(result.failed.map((f) => f.change.id)).toEqual(['channel:bad:create']);
    expect(result.skipped.map((s) => s.change.id).sort()).toEqual(['alert:b0:create', 'alert:b0:mute']);
    expect(result.skipped.find((s) => s.change.id === 'alert:b0:mute')!.reason).toBe('alert:b0:create was skipped');
    expect(result.done).toHaveLength(13);
    expect(calls.filter((c) => c.startsWith('createAlert g'))).toHaveLength(12);
  });

  it('refuses a plan with problems', async () => {
    const plan = computePlan(definitionsOf('alerts:\n  - {name: x, metric: m, alert_criteria: {type: above, above_value: 1}, notification_channels: [nowhere]}\n'), stateOf(), NOW);
    await expect(applyPlan(plan, stateOf(), recordingClient().client)).rejects.toThrow('cannot be applied');
  });
});
