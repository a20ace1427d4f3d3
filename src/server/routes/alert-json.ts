import type { Context } from 'koa';
import { muteState } from '../../model/mute-state.js';
import { presentAlertAs } from '../present.js';
import { isAcknowledgedAt } from '../../model/acknowledgement.js';
import type { AlertRecord, ScheduleRecord } from '../store/store.js';
import type { EvaluatedBy } from '../evaluator/evaluation-health.js';

/** The JSON text of a read object, with the per-request parts it was made with. */
interface Remembered {
  muted: boolean;
  acknowledged: boolean;
  evaluating: boolean;
  evaluatedBy: EvaluatedBy;
  json: string;
}

/**
 * The JSON text of alerts' read objects, remembered per stored record. Only records shared from the read cache
 * (http/alert-read-cache.ts: frozen, replaced rather than changed when the alert changes) are remembered, and only
 * as long as the record itself lives (a WeakMap). The text is reused only while both parts computed per request,
 * `muted` and whether the acknowledgement still holds, are what they were when it was made: the answer is byte for
 * byte what JSON.stringify of a fresh read object gives. Saves a cached read building and serializing the object
 * again (most of a search page's time once the store is not asked).
 */
const remembered = new WeakMap<AlertRecord, Remembered>();

/** The JSON text of one alert's read object at `now`, given the schedules and the window its muted flag depends on. */
export function alertJson(alert: AlertRecord, schedules: readonly ScheduleRecord[], now: number, evaluating: boolean, evaluatedBy: EvaluatedBy = 'render', mutedByWindow = false): string {
  const muted = mutedByWindow || muteState(alert, schedules, now).muted;
  const acknowledged = isAcknowledgedAt(alert.acknowledgement, Math.floor(now / 1000));
  const known = remembered.get(alert);
  if (known && known.muted === muted && known.acknowledged === acknowledged && known.evaluating === evaluating && known.evaluatedBy === evaluatedBy) return known.json;
  const json = JSON.stringify(presentAlertAs(alert, muted, acknowledged, evaluating, evaluatedBy));
  if (Object.isFrozen(alert)) remembered.set(alert, { muted, acknowledged, evaluating, evaluatedBy, json });
  return json;
}

/** The Content-Type Koa gives an object body (`ctx.type = 'json'`), written as is: Koa's setter looks it up each time. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers with JSON text already made, as Koa answers an object body (same Content-Type, same bytes). */
export function sendJson(ctx: Context, json: string): void {
  ctx.set('Content-Type', JSON_TYPE);
  ctx.body = json;
}
