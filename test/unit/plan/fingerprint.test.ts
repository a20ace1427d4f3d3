import { describe, expect, it } from 'vitest';
import { computePlan } from '../../../src/plan/compute.js';
import { fingerprintPlan } from '../../../src/plan/fingerprint.js';
import { createSavedPlan, findStaleness } from '../../../src/plan/saved.js';
import { redactError } from '../../../src/apply/progress.js';
import { alertRead, definitionsOf, NOW, stateOf } from './fixtures.js';

const DEFS = 'channels:\n  - {description: pd, type: pagerduty, destination: "${PD}"}\n';

describe('plan fingerprints and saved plans', () => {
  it('gives equal plans equal fingerprints, and a changed secret a different one without showing it', () => {
    const a = computePlan(definitionsOf(DEFS, { PD: 'key-one' }), stateOf(), NOW);
    const b = computePlan(definitionsOf(DEFS, { PD: 'key-one' }), stateOf(), new Date(NOW.getTime() + 60_000));
    const c = computePlan(definitionsOf(DEFS, { PD: 'key-two' }), stateOf(), NOW);
    expect(fingerprintPlan(a)).toBe(fingerprintPlan(b));
    expect(fingerprintPlan(a)).not.toBe(fingerprintPlan(c));
    const saved = JSON.stringify(createSavedPlan(a, stateOf(), { dir: '/defs', server: 'http://host' }));
    expect(saved).not.toContain('key-one');
  });

  it('finds a saved plan stale when a server object changed, went or appeared, but not when only its status moved', () => {
    const state = stateOf({ alerts: [alertRead({ id: 'a1', name: 'x' })] });
    const saved = createSavedPlan(computePlan(definitionsOf('alerts: []'), state, NOW), state, { dir: '/d', server: 's' });
    expect(findStaleness(saved, stateOf({ alerts: [alertRead({ id: 'a1', name: 'x', status: 'alerting', currently_triggered_metrics: ['m'] })] }))).toEqual([]);
    expect(findStaleness(saved, stateOf({ alerts: [alertRead({ id: 'a1', name: 'x', info: 'edited' })] }))).toEqual(['alert "x" changed']);
    expect(findStaleness(saved, stateOf())).toEqual(['alert "x" was deleted']);
    expect(findStaleness(saved, stateOf({ alerts: [alertRead({ id: 'a1', name: 'x' }), alertRead({ id: 'a2', name: 'y' })] }))).toEqual(['alert "y" appeared']);
  });

  it('keeps a secret out of an apply error even when the server echoes it', () => {
    const plan = computePlan(definitionsOf('channels:\n  - {description: m, type: email, destination: "${TO}"}\n', { TO: 'hidden@example.com' }), stateOf(), NOW);
    expect(redactError(plan.changes[0]!, 'POST http://k3y@h/v2/notifications/ answered 400: "hidden@example.com" is not an email address')).toBe(
      'POST http://(sensitive)@h/v2/notifications/ answered 400: "(sensitive)" is not an email address',
    );
  });
});
