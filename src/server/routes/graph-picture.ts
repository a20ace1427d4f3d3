import type Router from '@koa/router';
import type { GraphiteClient } from '../../graphite/index.js';
import { notFound } from '../errors.js';
import type { VerifyLink } from '../http/signed-links.js';
import { GRAPH_PICTURE_PATH } from '../graph/notification-links.js';
import { GRAPH_RANGES, readAlertGraph } from '../graph/read-graph.js';
import { renderGraphPng } from '../graph/render-png.js';
import type { Store } from '../store/store.js';

/** The picture covers the 6 hours before the notification and a little after (what happened next). */
const PICTURE_MINUTES = GRAPH_RANGES['6h'];
const AFTER_SECONDS = 30 * 60;

/**
 * GET /v2/graphs/{token}.png: the PNG of an alert's graph behind a signed, expiring link (the links notifications
 * carry). Open, like /healthz: the token is the only credential, bound to one alert, so no API key ever goes in a
 * URL. A token that does not verify is 404, an expired one 410 (and 429 past the address's limit: http/signed-links.ts); the alert is read in its own account only.
 */
export function registerGraphPictureRoute(
  router: Router,
  deps: { store: Pick<Store, 'alerts' | 'console' | 'history'>; now: () => number; graphite: GraphiteClient | null; verifyLink: VerifyLink },
): void {
  router.get(`${GRAPH_PICTURE_PATH}:file`, async (ctx) => {
    const file = (ctx as unknown as { params: { file: string } }).params.file;
    if (!file.endsWith('.png')) throw notFound('graph');
    const now = deps.now();
    const claims = await deps.verifyLink(ctx, file.slice(0, -'.png'.length), now, (signer, token, seconds) => signer.verify(token, seconds), {
      notFound: 'graph',
      expired: 'this graph link has expired',
    });
    const owner = await deps.store.console.findAlertOwner(claims.alertId);
    const alert = owner && (await deps.store.alerts.getAlert(owner.accountId, claims.alertId));
    if (!owner || !alert) throw notFound('graph');
    const graph = await readAlertGraph(
      alert,
      PICTURE_MINUTES + AFTER_SECONDS / 60,
      { graphite: deps.graphite, store: deps.store, prefixes: owner.metricPrefixes, now },
      claims.time + AFTER_SECONDS,
    );
    ctx.type = 'image/png';
    // The link lives until its expiry, but the data it shows changes until the picture's end: cache briefly.
    ctx.set('cache-control', 'private, max-age=60');
    ctx.body = await renderGraphPng(graph);
  });
}
