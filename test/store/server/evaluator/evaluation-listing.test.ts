import { afterEach, expect, it } from 'vitest';
import { alertWrite, describeEachStore } from '../../../helpers/store-backends.js';
import type { Store } from '../../../../src/server/store/store.js';

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

describeEachStore('the evaluator\'s listing on %s', (backend) => {
  const opened: Store[] = [];
  afterEach(async () => {
    while (opened.length) await opened.pop()!.close();
  });

  it('lists each alert with its channels in order, its JSON fields read, and muted by an active schedule, oldest first', async () => {
    const store = await backend.openStore();
    opened.push(store);
    const account = await store.accounts.createAccount('ops@example.com');
    const hook = (description: string) => store.channels.createChannel(account.id, { type: 'webhook', description, destination: 'https://hooks.example/x', autoResolve: false });
    const [first, second] = [await hook('first'), await hook('second')];
    const now = Date.now();
    const started = new Date(now - 5 * 60_000);
    const startTime = `${String(started.getUTCHours()).padStart(2, '0')}:${String(started.getUTCMinutes()).padStart(2, '0')}`;
    const schedule = await store.schedules.createSchedule(account.id, { name: 'window', startTime, duration: 60, timezone: 'UTC', repeat: [...WEEK], anchor: now });
    const muted = await store.alerts.createAlert(account.id, alertWrite(second.id, { name: 'muted', notificationChannels: [second.id, first.id], scheduledMutes: [schedule.id] }));
    const composite = await store.alerts.createAlert(
      account.id,
      alertWrite(first.id, {
        name: 'composite',
        additionalCriteria: { b: { type: 'below', below_value: 40, metric: 'host.*.mem' } },
        expression: 'a && b',
      }),
    );
    const plain = await store.alerts.createAlert(account.id, alertWrite(first.id, { name: 'plain' }));

    const listed = await store.evaluation.listAlertsForEvaluation(now);
    expect(listed.map((alert) => alert.id)).toEqual([muted.id, composite.id, plain.id]);
    expect(listed[0]).toMatchObject({ name: 'muted', notificationChannels: [second.id, first.id], muted: true, acknowledged: false });
    expect(listed[1]).toMatchObject({
      name: 'composite',
      notificationChannels: [first.id],
      additionalCriteria: { b: { type: 'below', below_value: 40, metric: 'host.*.mem' } },
      expression: 'a && b',
      muted: false,
      currentlyTriggeredMetrics: [],
    });
    expect(listed[2]).toMatchObject({ name: 'plain', notificationChannels: [first.id], alertCriteria: { type: 'above', above_value: 90 }, muted: false, escalation: [] });
    // Texts shared between alerts are parsed once and shared, so they are frozen.
    expect(listed[2]!.alertCriteria).toBe(listed[0]!.alertCriteria);
    expect(Object.isFrozen(listed[2]!.alertCriteria)).toBe(true);

    // Under a lease on every partition (one replica), the same alerts with the same links.
    const lease = await store.evaluation.acquireEvaluationLeases('replica-a', 60_000);
    const leased = await store.evaluation.listAlertsForEvaluation(now, lease);
    expect(leased).toEqual(listed);
  });
});
