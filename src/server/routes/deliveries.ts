import type Router from '@koa/router';
import { HttpError, echo, notFound } from '../errors.js';
import { presentDelivery } from '../present.js';
import { buildTestNotification, TEST_NOTIFICATION_NAME } from '../../notifications/test-notification.js';
import type { DeliveryState } from '../store/outbox.js';
import { QueryReader, readPaging } from '../validation/query.js';
import { accountOf, param, type RouteDeps } from './route-context.js';
import { createTestSendLimit } from './test-send-limit.js';

/** The states `state=` accepts; without it, the undelivered ones (pending and dead). */
export const DELIVERY_STATES = ['pending', 'dead', 'delivered', 'held', 'summarized'] as const;

/**
 * alertform's own (additive) GET /v2/deliveries/: the account's notifications in the outbox, oldest first, paged.
 * Shows where each one is (attempts, next attempt, last error) without destinations or payloads. The console's
 * extensions: `alert_id=` to list one alert's, retrying a dead-lettered one, and a test notification for a channel.
 */
export function registerDeliveryRoutes(router: Router, deps: RouteDeps<'alerts' | 'channels' | 'console' | 'outbox'>): void {
  const testSends = createTestSendLimit(deps.now);
  router.get('/v2/deliveries', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { repeatable: ['state'], single: ['page', 'max', 'alert_id'] });
    const paging = readPaging(query);
    const states = query.list('state');
    const alertId = query.text('alert_id');
    for (const state of states) {
      if (!(DELIVERY_STATES as readonly string[]).includes(state)) {
        query.problems.push({ path: 'state', message: `must be one of ${DELIVERY_STATES.join(', ')}` });
      }
    }
    query.assertValid();
    // Another account's alert does not exist for this one: 404, as GET /v2/alerts/{id}/ answers.
    if (alertId !== null && !(await deps.store.alerts.getAlert(accountOf(ctx), alertId))) throw notFound(`alert ${echo(alertId)}`);
    const page = await deps.store.outbox.listDeliveries(accountOf(ctx), {
      states: states.length > 0 ? [...new Set(states as DeliveryState[])] : ['pending', 'dead'],
      ...(alertId !== null ? { alertId } : {}),
      ...paging,
    });
    ctx.body = { deliveries: page.items.map(presentDelivery), next_page: page.nextPage };
  });

  router.post('/v2/deliveries/:id/retry', async (ctx) => {
    const account = accountOf(ctx);
    const id = param(ctx, 'id');
    const outcome = await deps.store.console.retryDelivery(account, id, deps.now());
    if (outcome === null) throw notFound('delivery');
    if (outcome === 'not_dead') throw new HttpError('conflict', 'only a dead-lettered delivery can be retried', { status: 409 });
    ctx.body = { delivery: presentDelivery((await deps.store.console.getDelivery(account, id))!) };
  });

  router.post('/v2/notifications/:id/test', async (ctx) => {
    const account = accountOf(ctx);
    const channel = await deps.store.channels.getChannel(account, param(ctx, 'id'));
    if (!channel) throw notFound('channel');
    // Judged after the channel is found: another account's channel is a 404, never a count of this one's tests.
    const refusal = testSends(account, channel.id);
    if (refusal) {
      ctx.set('Retry-After', String(refusal.retryAfterSeconds));
      throw new HttpError('rate_limited', refusal.message);
    }
    const now = deps.now();
    const delivery = await deps.store.console.enqueueChannelTest(account, channel.id, {
      alertId: '',
      alertName: TEST_NOTIFICATION_NAME,
      event: 'test',
      payload: buildTestNotification(channel, now, account),
      createdAt: now,
    });
    // The channel was deleted between the two reads.
    if (!delivery) throw notFound('channel');
    ctx.status = 202;
    ctx.body = { delivery: presentDelivery(delivery) };
  });
}
