import type Router from '@koa/router';
import { presentSchedule } from '../present.js';
import { findAlert, schedulesOf } from '../routes/alerts.js';
import type { RouteDeps } from '../routes/route-context.js';
import { scheduleWindow } from './schedule-window.js';

/**
 * alertform's own (additive) GET /v2/alerts/{id}/scheduled-mutes/: the alert's scheduled mutes, each with its
 * current or next window (`window`: {from, until} in unix seconds, or null once a one-time mute has passed) and
 * whether it mutes the alert now. The console lists them on the alert page.
 */
export function registerScheduledMutesRoute(router: Router, deps: RouteDeps<'alerts' | 'schedules'>): void {
  router.get('/v2/alerts/:id/scheduled-mutes', async (ctx) => {
    const alert = await findAlert(ctx, deps.store.alerts);
    const schedules = await schedulesOf(ctx, deps.store, [alert]);
    const now = deps.now();
    ctx.body = {
      scheduled_mutes: alert.scheduledMutes.flatMap((id) => {
        const schedule = schedules.get(id);
        if (!schedule) return [];
        const window = scheduleWindow(schedule, now);
        return [
          {
            ...presentSchedule(schedule),
            active: window !== null && window.from <= now,
            window: window && { from: Math.floor(window.from / 1000), until: Math.floor(window.until / 1000) },
          },
        ];
      }),
    };
  });
}
