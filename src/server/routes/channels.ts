import type Router from '@koa/router';
import type { Context } from 'koa';
import type { ChannelBody } from '../../model/types.js';
import { CHANNEL_TYPES } from '../../model/types.js';
import { invalidBody, notFound } from '../errors.js';
import { readJsonBody } from '../http/read-json-body.js';
import { presentChannel } from '../present.js';
import type { ChannelRecord, Store } from '../store/store.js';
import { checkChannelRules, mergeChannelUpdate } from '../validation/channel-rules.js';
import { checkSchema } from '../validation/check-schema.js';
import { QueryReader, readPaging } from '../validation/query.js';
import { withConflict } from './alerts.js';
import { READ_ONLY_FIELDS, dropReadOnlyFields } from './read-only-fields.js';
import { accountOf, param, type RouteDeps } from './route-context.js';
import { assertBelowQuota } from '../quotas.js';
import { presentSigningSecret, readRotationGrace } from './signing-secret.js';
import { signingSecrets } from '../notifiers/webhook-signing.js';

/** Operations 12-16 of the seed: notification channels. Statuses follow the seed's Errors table exactly. */
export function registerChannelRoutes(router: Router, deps: RouteDeps<'alerts' | 'channels' | 'console' | 'outbox' | 'schedules'>): void {
  const { store } = deps;
  const secrets = signingSecrets(store);

  router.post('/v2/notifications', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    // The seed documents 404 for an invalid create body; the code says invalid_body.
    const problems = checkSchema('channel', 'create', body);
    if (problems.length > 0) throw invalidBody(problems, 404);
    const checked = checkChannelRules(body as unknown as ChannelBody, deps.destinations);
    if (!checked.ok) throw invalidBody(checked.problems, 404);
    await assertBelowQuota(store, accountOf(ctx), 'channels', deps.quotas.channels);
    const channel = await withConflict(() => store.channels.createChannel(accountOf(ctx), checked.value));
    ctx.status = 201;
    ctx.body = { id: channel.id, url: `/v2/notifications/${channel.id}` };
  });

  router.get('/v2/notifications', async (ctx) => {
    const query = new QueryReader(ctx.querystring, {
      repeatable: ['type', 'description', 'id'],
      single: ['auto_resolve', 'page', 'max'],
      aliases: { descriptions: 'description' },
    });
    const paging = readPaging(query);
    const types = query.list('type');
    types.forEach((type) => {
      if (!(CHANNEL_TYPES as readonly string[]).includes(type)) {
        query.problems.push({ path: 'type', message: `must be one of ${CHANNEL_TYPES.join(', ')}` });
      }
    });
    const autoResolve = query.boolean('auto_resolve');
    query.assertValid();
    const page = await store.channels.searchChannels(accountOf(ctx), {
      types,
      descriptions: query.list('description'),
      ids: query.list('id'),
      autoResolve,
      ...paging,
    });
    const pending = await store.outbox.summarizePendingDeliveries(accountOf(ctx), page.items.map((channel) => channel.id));
    ctx.body = {
      notifications: page.items.map((channel) => presentChannel(channel, pending.get(channel.id))),
      next_page: page.nextPage,
    };
  });

  router.get('/v2/notifications/:id', async (ctx) => {
    // The seed documents 400 for reading a channel that does not exist.
    const channel = await findChannel(ctx, store, 400);
    const pending = await store.outbox.summarizePendingDeliveries(accountOf(ctx), [channel.id]);
    ctx.body = presentChannel(channel, pending.get(channel.id));
  });

  router.put('/v2/notifications/:id', async (ctx) => {
    const body = await readJsonBody(ctx.req);
    const stored = await findChannel(ctx, store);
    // The unaddressed `Email me` channel read back as it is: its empty destination means "unchanged", not a new one.
    if (stored.destination === '' && isRecord(body) && body.destination === '') delete body.destination;
    const problems = checkSchema('channel', 'update', body);
    if (problems.length > 0) throw invalidBody(problems);
    const patch = dropReadOnlyFields(body, stored.id, READ_ONLY_FIELDS.channel);
    const checked = checkChannelRules(mergeChannelUpdate(stored, patch as Partial<ChannelBody>), deps.destinations, stored);
    if (!checked.ok) throw invalidBody(checked.problems);
    const updated = await withConflict(() => store.channels.updateChannel(accountOf(ctx), stored.id, checked.value));
    if (!updated) throw notFound('channel');
    ctx.body = presentChannel(updated);
  });

  // Extension: the secret that signs this channel's webhook bodies (Alertform-Signature), for the receiver's
  // configuration. Answered to the account's key only, like the destination; never logged.
  router.get('/v2/notifications/:id/signing-secret', async (ctx) => {
    const channel = await findChannel(ctx, store);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSigningSecret(channel.id, await secrets(channel.id, deps.now()));
  });

  // Extension: a new secret for the channel; the one it replaces keeps signing (a second v1=) for the grace period.
  router.post('/v2/notifications/:id/signing-secret/rotate', async (ctx) => {
    const grace = readRotationGrace(await readJsonBody(ctx.req));
    const channel = await findChannel(ctx, store);
    const now = deps.now();
    const rotated = await store.channels.rotateSigningSecret(accountOf(ctx), channel.id, Math.floor(now / 1000) + grace);
    if (!rotated) throw notFound('channel');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentSigningSecret(channel.id, await secrets(channel.id, now));
  });

  router.delete('/v2/notifications/:id', async (ctx) => {
    const id = param(ctx, 'id');
    const result = await store.channels.deleteChannel(accountOf(ctx), id);
    if (!result) throw notFound('channel');
    ctx.body = { id, deleted: true, alerts_changed: result.alertsChanged };
  });
}

async function findChannel(ctx: Context, store: Pick<Store, 'channels' | 'console' | 'outbox'>, status?: number): Promise<ChannelRecord> {
  const channel = await store.channels.getChannel(accountOf(ctx), param(ctx, 'id'));
  if (!channel) throw notFound('channel', status);
  return channel;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
