import Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * The API's router split by the path's first segment under /v2 (alerts, notifications, schedules, deliveries): a
 * router tests every one of its routes against every request, so a read of one alert would otherwise test the
 * patterns of all 33 routes; split, it tests those of its own segment only (measured: the router's matching was the
 * largest cost left in a cached read's own code). Answers are those of `api` itself:
 * - each part holds `api`'s routes of one segment, in `api`'s order, with `api`'s options;
 * - a route's pattern starts with its literal segment, so no route of another part can match a path of this
 *   segment; the segment is looked up lower-cased, as the router matches case-insensitively, and only when it is
 *   plain ASCII letters (so that no Unicode case folding can tell the two apart);
 * - any other path (no segment, or one no route starts with) goes to `api` as a whole.
 */
export function segmentRoutes(api: Router, options: ConstructorParameters<typeof Router>[0]): Middleware {
  const parts = new Map<string, Router>();
  for (const layer of api.stack) {
    const segment = /^\/v2\/([a-z]+)(?:\/|$)/.exec(layer.path as string)?.[1];
    if (!segment) return api.routes() as Middleware; // a pattern this split does not know: keep one router
    let part = parts.get(segment);
    if (!part) parts.set(segment, (part = new Router(options)));
    // The router adds HEAD to every GET itself: hand it the methods as they were given.
    const methods = layer.methods.filter((method) => !(method === 'HEAD' && layer.methods.includes('GET')));
    part.register(layer.path, methods, layer.stack, layer.opts);
  }
  const whole = api.routes() as Middleware;
  const routes = new Map([...parts].map(([segment, part]) => [segment, part.routes() as Middleware]));
  return (ctx, next) => {
    const path = ctx.path;
    const end = path.indexOf('/', 4);
    const segment = path.slice(4, end < 0 ? undefined : end);
    const part = /^[A-Za-z]+$/.test(segment) ? routes.get(segment.toLowerCase()) : undefined;
    return (part ?? whole)(ctx, next);
  };
}
