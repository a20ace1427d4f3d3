import type { NotificationEvent } from '../../../../src/evaluation/transitions.js';
import type { DeliveryChannel, Notification } from '../../../../src/notifications/types.js';
import type { NotifierSettings } from '../../../../src/server/notifiers/delivery.js';
import { parseDestinationPolicy } from '../../../../src/server/net/destination-policy.js';
import { DEFAULT_NOTIFIER_SETTINGS } from '../../../../src/server/notifiers/delivery.js';

export const TIME = 1_700_000_000;

/** A notification of a plain alert whose name has quotes and markup in it. */
export function plainNotification(event: NotificationEvent = 'alerting'): Notification {
  return {
    event,
    alert: {
      id: 'al_123',
      name: 'CPU "hot" <web> & co',
      metric: 'web.*.cpu',
      alert_criteria: { type: 'above', above_value: 90, time_period: 5 },
      additional_criteria: {},
      expression: 'a',
      info: 'Check the runbook: https://runbooks.example/cpu',
      notification_type: ['every', 30],
    },
    triggered: event === 'recovered' ? [{ metric: 'web.2.cpu', value: 40 }] : [{ metric: 'web.2.cpu', value: 95.5 }],
    conditions: [],
    // What the delivery service sets with --public-url: this server's signed PNG link and the console page.
    graphUrl: 'https://alertform.example/v2/graphs/eyJhIjoiYWxfMTIzIn0.c2ln.png',
    consoleUrl: 'https://alertform.example/alerts/al_123',
    time: TIME,
    // The alerting episode began five minutes before (the evaluator's alertingSince).
    startedAt: TIME - 300,
  };
}

/** A composite notification: a && b, both holding. */
export function compositeNotification(): Notification {
  const base = plainNotification();
  return {
    ...base,
    alert: {
      ...base.alert,
      name: 'Composite',
      additional_criteria: { b: { type: 'below', below_value: 1, metric: 'web.*.free' } },
      expression: 'a && b',
      notification_type: ['state_change'],
    },
    triggered: [
      { metric: 'web.2.cpu', value: 95.5 },
      { metric: 'web.2.free', value: 0.5 },
    ],
    conditions: [
      { letter: 'a', metric: 'web.*.cpu', criteria: { type: 'above', above_value: 90, time_period: 5 }, state: 'holds', triggered: [{ metric: 'web.2.cpu', value: 95.5 }] },
      { letter: 'b', metric: 'web.*.free', criteria: { type: 'below', below_value: 1 }, state: 'holds', triggered: [{ metric: 'web.2.free', value: 0.5 }] },
    ],
  };
}

export function channel(type: DeliveryChannel['type'], destination: string, autoResolve = false): DeliveryChannel {
  return { id: `ch_${type}`, type, description: `${type} channel`, destination, autoResolve };
}

/** The defaults, but with private destinations allowed: these tests deliver to receivers on 127.0.0.1. */
export function settings(overrides: Partial<NotifierSettings> = {}): NotifierSettings {
  return { ...DEFAULT_NOTIFIER_SETTINGS, destinations: parseDestinationPolicy(true), ...overrides };
}
