import type { FieldProblem } from './schemas.js';

/** The most steps an alert's escalation may have (the JSON Schemas say it too: maxItems). */
export const MAX_ESCALATION_STEPS = 10;
/** The latest a step may come: a week of alerting (schemas: maximum). */
export const MAX_ESCALATION_MINUTES = 10_080;

/**
 * Escalation steps must come strictly later one after another: a step names its place in the chain by its `after`,
 * so two at the same minute, or one earlier than the step before, is a mistake in the chain, never an intent.
 * `afters` are minutes; `path` is the list's path (problems point at the step's `after_minutes`, or `pathOf`).
 */
export function checkEscalationOrder(
  afters: readonly number[],
  path: string,
  pathOf: (index: number) => string = (index) => `${path}.${index}.after_minutes`,
  show: (minutes: number) => string = (minutes) => `${minutes} minutes`,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  afters.forEach((after, index) => {
    const before = afters[index - 1];
    if (index > 0 && before !== undefined && after <= before) {
      problems.push({ path: pathOf(index), message: `steps must come strictly later one after another: ${show(after)} is not after the previous step's ${show(before)}` });
    }
  });
  return problems;
}

/**
 * The most channels one alert may notify: its notification_channels and every escalation step's, each channel
 * counted once. One transition or acknowledgement makes one delivery per channel, so this bounds what one change
 * can send (an alert on 997 channels turned each acknowledgement into 997 webhooks). The JSON Schemas say it of
 * each list (maxItems); this says it of them together.
 */
export const MAX_ALERT_CHANNELS = 20;

/** The channel cap, given the channels (ids or names) of the alert and of each escalation step. */
export function checkChannelCount(channels: readonly string[], steps: readonly (readonly string[])[]): FieldProblem[] {
  const own = new Set(channels);
  if (own.size > MAX_ALERT_CHANNELS) {
    return [{ path: 'notification_channels', message: `names ${own.size} channels: an alert notifies at most ${MAX_ALERT_CHANNELS}` }];
  }
  const all = new Set([...own, ...steps.flat()]);
  if (all.size <= MAX_ALERT_CHANNELS) return [];
  return [
    {
      path: 'escalation',
      message: `names ${all.size} channels with notification_channels: an alert notifies at most ${MAX_ALERT_CHANNELS}, its escalation steps' included`,
    },
  ];
}
