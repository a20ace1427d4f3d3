import type Router from '@koa/router';
import { acknowledgeAlert, withdrawAcknowledgement, type AckRequest } from '../ack/acknowledge-alert.js';
import { findAlert, presentAlerts } from './alerts.js';
import { readValidBody, type RouteDeps } from './route-context.js';

/**
 * The alertform extension for acknowledging: POST /v2/alerts/{id}/ack/ acknowledges the current alerting
 * episode (409 when the alert is not alerting), DELETE withdraws it (409 when there is none); both answer the alert
 * with its `acknowledgement`. The acknowledgement ends by itself when the alert recovers or its `until` passes.
 */
export function registerAckRoutes(router: Router, deps: RouteDeps<'acks' | 'alerts' | 'schedules' | 'windows'>): void {
  router.post('/v2/alerts/:id/ack', async (ctx) => {
    const alert = await findAlert(ctx, deps.store.alerts);
    const body = await readValidBody<AckRequest>(ctx, 'alert', 'ack');
    deps.ackChanges?.take(alert.id);
    const acknowledgement = await acknowledgeAlert(deps.store, alert, body, deps.now(), undefined, await deps.evaluation.evaluating());
    ctx.body = (await presentAlerts(ctx, deps, [{ ...alert, acknowledgement }]))[0];
  });

  router.delete('/v2/alerts/:id/ack', async (ctx) => {
    const alert = await findAlert(ctx, deps.store.alerts);
    // Who withdraws, when the client says (the CLI and the console do): the history names them.
    const by = new URLSearchParams(ctx.querystring).get('by')?.trim().slice(0, 200) || null;
    deps.ackChanges?.take(alert.id);
    await withdrawAcknowledgement(deps.store, alert, by, deps.now());
    ctx.body = (await presentAlerts(ctx, deps, [{ ...alert, acknowledgement: null }]))[0];
  });
}
