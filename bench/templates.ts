/**
 * `npm run bench:templates`: what a message template costs a notification. 10,000 alerting notifications are built
 * as Slack, PagerDuty and email bodies twice: with the default wording, and with a channel template (a title, and a
 * body with a list section over 5 triggered metrics and a link condition). Each templated message is checked and
 * rendered by mustache, fresh each time (no cache of templates across calls). Prints the median time of each and
 * the ratio, in the same process so that the machine's load weighs on both alike. Goal: under 100 µs a templated
 * message, so that templates never weigh on a cycle's delivery (the HTTP request costs milliseconds).
 */
import { buildEmail } from '../src/server/notifiers/email.js';
import { buildPagerdutyEvent } from '../src/server/notifiers/pagerduty.js';
import { buildSlackPayload } from '../src/server/notifiers/slack.js';
import type { DeliveryChannel, Notification } from '../src/notifications/types.js';

const COUNT = Number(process.env.BENCH_NOTIFICATIONS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TEMPLATE = {
  title: '*{{name}}* is {{event}}: {{value}}',
  body: '{{#triggered}}- {{metric}} = {{value}}\n{{/triggered}}{{info}}\n{{#links.console}}<{{links.console}}|open>{{/links.console}}',
};

const notifications: Notification[] = Array.from({ length: COUNT }, (_, i) => ({
  event: 'alerting',
  alert: {
    id: `al_${i}`,
    name: `CPU <web-${i}> & "co"`,
    metric: 'web.*.cpu',
    alert_criteria: { type: 'above', above_value: 90, time_period: 5 },
    additional_criteria: {},
    expression: 'a',
    info: 'Check the runbook',
    notification_type: ['every', 30],
  },
  triggered: Array.from({ length: 5 }, (__, k) => ({ metric: `web.${k}.cpu`, value: 90 + k })),
  conditions: [],
  graphUrl: null,
  consoleUrl: `https://alertform.example/alerts/al_${i}`,
  time: 1_700_000_000 + i,
}));

function channel(type: DeliveryChannel['type'], template: DeliveryChannel['template']): DeliveryChannel {
  return { id: 'c', type, description: 'c', destination: 'k', autoResolve: false, template };
}

function buildAll(template: DeliveryChannel['template']): void {
  const pd = channel('pagerduty', template);
  for (const n of notifications) {
    buildSlackPayload(n, template);
    buildPagerdutyEvent(pd, n);
    buildEmail(n, template);
  }
}

function median(fn: () => void): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const plain = median(() => buildAll(null));
const templated = median(() => buildAll(TEMPLATE));
const messages = COUNT * 3;
console.log(`${COUNT} notifications x 3 channel types (slack, pagerduty, email), median of ${RUNS}:`);
console.log(`  default wording: ${plain.toFixed(0)} ms (${((plain / messages) * 1000).toFixed(1)} µs a message)`);
console.log(`  templated:       ${templated.toFixed(0)} ms (${((templated / messages) * 1000).toFixed(1)} µs a message)`);
console.log(`  ratio templated/default: ${(templated / plain).toFixed(2)}x (goal: under 100 µs a templated message)`);
