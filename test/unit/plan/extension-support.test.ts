import { describe, expect, it } from 'vitest';
import { computePlan } from '../../../src/plan/compute.js';
import { emptyActualState } from '../../../src/plan/state.js';
import { serverAnswersExtensions } from '../../../src/plan/extension-support.js';
import { alertformStateOf, definitionsOf, NOW, stateOf } from './fixtures.js';

const DEFINITIONS = `
channels:
  - description: ops hook
    type: webhook
    destination: https://hooks.example/ops
    throttle: {max_notifications: 5, window: 1h}
    template: {title: "{{name}} is {{event}}"}
  - {description: plain, type: email, destination: ops@example.com, throttle: null}
alerts:
  - name: cpu
    metric: web.cpu
    alert_criteria: {type: above, above_value: 90}
    notification_channels: [ops hook]
    flap_guard: {max_changes: 4, window: 30m}
    pagerduty_severity: warning
    escalation: []
`;

const problemsOf = (state: Parameters<typeof computePlan>[1]) =>
  computePlan(definitionsOf(DEFINITIONS), state, NOW).problems.map((p) => `${p.location?.line} ${p.path}: ${p.message.split(',')[0]}`);

describe("alertform's extensions against a server that does not answer them", () => {
  it('are problems at each field set, against the hosted service (its reads carry none of them)', () => {
    expect(serverAnswersExtensions(stateOf())).toBe(false);
    expect(problemsOf(stateOf())).toEqual([
      '14 alerts.0.flap_guard: flap_guard is an alertform server extension',
      '15 alerts.0.pagerduty_severity: pagerduty_severity is an alertform server extension',
      '6 channels.0.throttle: throttle is an alertform server extension',
      '7 channels.0.template: template is an alertform server extension',
    ]);
  });

  it('are planned as usual against alertform serve, and when nothing was read to tell by', () => {
    expect(serverAnswersExtensions(alertformStateOf())).toBe(true);
    expect(problemsOf(alertformStateOf())).toEqual([]);
    expect(serverAnswersExtensions(emptyActualState())).toBeUndefined();
    expect(problemsOf(emptyActualState())).toEqual([]);
  });
});
