import { describe, expect, it } from 'vitest';
import { checkAlertRules, mergeAlertUpdate, type ReferenceLookup } from '../../../../src/server/validation/alert-rules.js';
import type { AlertRecord } from '../../../../src/server/store/store.js';

const lookup: ReferenceLookup = {
  resolveChannels: async (refs) => new Map(refs.filter((ref) => ref === 'ops' || ref === 'c1').map((ref) => [ref, 'c1'])),
  defaultChannel: async () => 'email-me',
  existingSchedules: async (ids) => new Set(ids.filter((id) => id === 's1')),
  // Alerts: p1 (named "ping") depends on nothing; c2 depends on a1.
  resolveAlerts: async (refs) => new Map(refs.flatMap((ref) => (ref === 'ping' || ref === 'p1' ? [[ref, 'p1']] : ref === 'cpu' || ref === 'a1' ? [[ref, 'a1']] : ref === 'c2' ? [[ref, 'c2']] : []))),
  dependencyEdges: async () => [{ from: 'c2', to: 'a1' }],
  alertNames: async (ids) => new Map(ids.map((id) => [id, id === 'a1' ? 'cpu' : id])),
};

const stored: AlertRecord = {
  id: 'a1', accountId: 'acc', name: 'cpu', metric: 'sumSeries(x.*)', alertCriteria: { type: 'above', above_value: 1 },
  additionalCriteria: {}, expression: 'a', notificationChannels: ['c1'], notificationType: ['every', 60], scheduledMutes: [],
  info: 'runbook', onQueryFailure: 'ignore', status: 'alerting', currentlyTriggeredMetrics: [], mutedUntil: null, evalState: null,
  createdAt: '2026-01-01T00:00:00Z', escalation: [],
  acknowledgement: null,
};

describe('the alert rules', () => {
  it('normalise a valid body: default channel, list notification_type, canonical expression', async () => {
    const result = await checkAlertRules(
      { name: 'x', metric: 'm', alert_criteria: { type: 'above', above_value: 1, time_period: null }, notification_type: 'state_change' },
      lookup,
    );
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'x', metric: 'm', alertCriteria: { type: 'above', above_value: 1 }, additionalCriteria: {}, expression: 'a',
        notificationChannels: ['email-me'], notificationType: ['state_change'], scheduledMutes: [], info: null, onQueryFailure: null, flapGuard: null,
        pagerdutySeverity: null, opsgeniePriority: null, settleSeconds: null, onNoData: null,
      },
    });
  });

  it('collect every problem at once, each with its path', async () => {
    const result = await checkAlertRules(
      {
        name: 'x', metric: 'm', alert_criteria: { type: 'outside_bounds', above_value: 1, below_value: 2 },
        additional_criteria: { c: { type: 'above', above_value: 1, metric: 'n' } }, expression: 'a || b',
        notification_channels: ['ops', 'nope'], scheduled_mutes: ['s1', 's2'], on_query_failure: 'notify',
      },
      lookup,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((p) => p.path)).toEqual([
        'alert_criteria.below_value', 'expression', 'additional_criteria.c', 'on_query_failure', 'notification_channels.1', 'scheduled_mutes.1',
      ]);
    }
  });
});

describe('merging an update', () => {
  it('keeps the stored fields that the patch does not name', () => {
    expect(mergeAlertUpdate(stored, { info: null })).toMatchObject({ name: 'cpu', info: null, notification_channels: ['c1'], on_query_failure: 'ignore' });
  });

  it('lets on_query_failure follow the metric when the patch does not set it', () => {
    expect(mergeAlertUpdate(stored, { metric: 'plain.path' }).on_query_failure).toBeNull();
    expect(mergeAlertUpdate({ ...stored, metric: 'plain', onQueryFailure: null }, { metric: 'maxSeries(y)' }).on_query_failure).toBe('notify');
    expect(mergeAlertUpdate(stored, { metric: 'plain.path', on_query_failure: 'notify' }).on_query_failure).toBe('notify');
  });
});

describe('depends_on', () => {
  const body = { name: 'cpu', metric: 'x.*', alert_criteria: { type: 'above' as const, above_value: 1 } };

  it('resolves names to ids, once each', async () => {
    const checked = await checkAlertRules({ ...body, depends_on: [{ alert: 'ping', nodes: [1] }, { alert: 'p1' }] }, lookup, [], 'a1');
    expect(checked.ok && checked.value.dependsOn).toEqual([{ alert: 'p1', nodes: [1] }]);
  });

  it('refuses an unknown parent, itself, a cycle and node lists of different lengths', async () => {
    const problems = async (items: { alert: string; nodes?: number[]; parent_nodes?: number[] }[], selfId?: string) => {
      const checked = await checkAlertRules({ ...body, depends_on: items }, lookup, [], selfId);
      return checked.ok ? [] : checked.problems.map((problem) => `${problem.path}: ${problem.message}`);
    };
    expect(await problems([{ alert: 'nope' }], 'a1')).toEqual(['depends_on.0.alert: no alert with id or name "nope"']);
    expect(await problems([{ alert: 'cpu' }], 'a1')).toEqual(['depends_on.0.alert: an alert cannot depend on itself']);
    expect(await problems([{ alert: 'cpu' }])).toEqual(['depends_on.0.alert: an alert cannot depend on itself']);
    expect(await problems([{ alert: 'c2' }], 'a1')).toEqual(['depends_on: a dependency cycle: "cpu -> c2 -> cpu"']);
    expect(await problems([{ alert: 'p1', nodes: [1], parent_nodes: [1, 2] }], 'a1')).toEqual(['depends_on.0.parent_nodes: must have as many nodes as nodes']);
  });
});
