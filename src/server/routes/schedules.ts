import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ScheduleBody } from '../../model/types.js';
import { invalidBody, notFound } from '../errors.js';
import { readJsonBody } from '../http/read-json-body.js';
import { presentSchedule } from '../present.js';
import type { ScheduleRecord, Store } from '../store/store.js';
import { checkSchema } from '../validation/check-schema.js';
import { QueryReader, readPaging } from '../validation/query.js';
import { changesTiming, checkScheduleRules, mergeScheduleUpdate } from '../validation/schedule-rules.js';
import { readScheduleFilters } from '../validation/schedule-query.js';
import { withConflict } from './alerts.js';
import { READ_ONLY_FIELDS, dropReadOnlyFields } from './read-only-fields.js';
import { accountOf, param, type RouteDeps } from './route-context.js';
import { assertBelowQuota } from '../quotas.js';

/** Scheduled mutes (/v2/schedules/): shaped like the channel endpoints, with plain 400/404 statuses. */
export function registerScheduleRoutes(router: Router, deps: RouteDeps<'alerts' | 'channels' | 'schedules'>): void {
  const { store } = deps;

  router.post('/v2/schedules', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const problems = checkSchema('schedule', 'create', body);
    if (problems.length > 0) throw invalidBody(problems);
    const checked = checkScheduleRules(body as unknown as ScheduleBody, deps.now());
    if (!checked.ok) throw invalidBody(checked.problems);
    await assertBelowQuota(store, accountOf(ctx), 'schedules', deps.quotas.schedules);
    const schedule = await withConflict(() => store.schedules.createSchedule(accountOf(ctx), checked.value));
    ctx.status = 201;
    ctx.body = { id: schedule.id, url: `/v2/schedules/${schedule.id}` };
  });

  router.get('/v2/schedules', async (ctx) => {
    const query = new QueryReader(ctx.querystring, {
      repeatable: ['name', 'id', 'duration', 'start_time', 'timezone', 'repeat'],
      single: ['page', 'max'],
    });
    const paging = readPaging(query);
    const filters = readScheduleFilters(query);
    query.assertValid();
    const page = await store.schedules.searchSchedules(accountOf(ctx), {
      names: query.list('name'),
      ids: query.list('id'),
      ...filters,
      ...paging,
    });
    // The public docs' list key and paging: `next_page` is the next page's number, or false on the last page.
    ctx.body = { scheduled_mutes: page.items.map(presentSchedule), next_page: page.nextPage ? paging.page + 1 : false };
  });

  router.get('/v2/schedules/:id', async (ctx) => {
    ctx.body = presentSchedule(await findSchedule(ctx, store));
  });

  router.put('/v2/schedules/:id', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const stored = await findSchedule(ctx, store);
    const problems = checkSchema('schedule', 'update', body);
    if (problems.length > 0) throw invalidBody(problems);
    const patch = dropReadOnlyFields(body, stored.id, READ_ONLY_FIELDS.schedule);
    const checked = checkScheduleRules(mergeScheduleUpdate(stored, patch as Partial<ScheduleBody>), stored.anchor);
    if (!checked.ok) throw invalidBody(checked.problems);
    // A one-time schedule whose timing changes counts its next start_time from now again.
    const next = changesTiming(stored, checked.value) ? { ...checked.value, anchor: deps.now() } : checked.value;
    const updated = await withConflict(() => store.schedules.updateSchedule(accountOf(ctx), stored.id, next));
    if (!updated) throw notFound('scheduled mute');
    ctx.body = presentSchedule(updated);
  });

  router.delete('/v2/schedules/:id', async (ctx) => {
    const id = param(ctx, 'id');
    if (!(await store.schedules.deleteSchedule(accountOf(ctx), id))) throw notFound('scheduled mute');
    ctx.body = { id, deleted: true };
  });
}

async function findSchedule(ctx: Context, store: Pick<Store, 'schedules'>): Promise<ScheduleRecord> {
  const schedule = await store.schedules.getSchedule(accountOf(ctx), param(ctx, 'id'));
  if (!schedule) throw notFound('scheduled mute');
  return schedule;
}
