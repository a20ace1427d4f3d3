import type Router from '@koa/router';
import { presentDelivery } from '../present.js';
import type { DeliveryState } from '../store/outbox.js';
import { QueryReader, readPaging } from '../validation/query.js';
import { accountOf, type RouteDeps } from './route-context.js';

/** The states `state=` accepts; without it, the undelivered ones (pending and dead). */
export const DELIVERY_STATES = ['pending', 'dead', 'delivered'] as const;

/**
 * alertform's own (additive) GET /v2/deliveries/: the account's notifications in the outbox, oldest first, paged.
 * Shows where each one is (attempts, next attempt, last error) without destinations or payloads.
 */
export function registerDeliveryRoutes(router: Router, deps: RouteDeps): void {
  router.get('/v2/deliveries', async (ctx) => {
    const query = new QueryReader(ctx.querystring, { repeatable: ['state'], single: ['page', 'max'] });
    const paging = readPaging(query);
    const states = query.list('state');
    for (const state of states) {
      if (!(DELIVERY_STATES as readonly string[]).includes(state)) {
        query.problems.push({ path: 'state', message: `must be one of ${DELIVERY_STATES.join(', ')}` });
      }
    }
    query.assertValid();
    const page = await deps.store.listDeliveries(accountOf(ctx), {
      states: states.length > 0 ? [...new Set(states as DeliveryState[])] : ['pending', 'dead'],
      ...paging,
    });
    ctx.body = { deliveries: page.items.map(presentDelivery), next_page: page.nextPage };
  });
}
