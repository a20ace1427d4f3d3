/**
 * A client written only against the types openapi-typescript generates from /v2/openapi.json (./api.d.ts, made
 * by the test), with plain fetch: full CRUD of channels, schedules and alerts, muting and history. It must
 * type-check under strict settings and run against the server. Excluded from the project's tsconfig: ./api.d.ts
 * exists only in the test's temporary directory.
 */
import type { paths } from './api.js';

type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type JsonResponse<Op, S extends number> = Op extends { responses: { [K in S]: { content: { 'application/json': infer R } } } } ? R : never;

type CreateAlert = JsonBody<paths['/v2/alerts/']['post']>;
type UpdateAlert = JsonBody<paths['/v2/alerts/{id}/']['put']>;
type AlertRead = JsonResponse<paths['/v2/alerts/{id}/']['get'], 200>;
type AlertPage = JsonResponse<paths['/v2/alerts/']['get'], 200>;
type Created = JsonResponse<paths['/v2/alerts/']['post'], 201>;
type CreateChannel = JsonBody<paths['/v2/notifications/']['post']>;
type ChannelRead = JsonResponse<paths['/v2/notifications/{id}/']['get'], 200>;
type UpdateChannel = JsonBody<paths['/v2/notifications/{id}/']['put']>;
type ChannelDeleted = JsonResponse<paths['/v2/notifications/{id}/']['delete'], 200>;
type CreateSchedule = JsonBody<paths['/v2/schedules/']['post']>;
type ScheduleRead = JsonResponse<paths['/v2/schedules/{id}/']['get'], 200>;
type UpdateSchedule = JsonBody<paths['/v2/schedules/{id}/']['put']>;
type SchedulePage = JsonResponse<paths['/v2/schedules/']['get'], 200>;
type Mute = JsonBody<paths['/v2/alerts/{id}/muted/']['post']>;
type MuteStatus = JsonResponse<paths['/v2/alerts/{id}/muted/']['get'], 200>;
type BulkUnmute = JsonResponse<paths['/v2/alerts/muted/']['delete'], 200>;
type History = JsonResponse<paths['/v2/alerts/history/']['get'], 200>;
type ErrorBody = JsonResponse<paths['/v2/alerts/{id}/']['get'], 404>;

/** What the run saw, for the test to check. */
export interface CrudLog {
  steps: string[];
  alert: AlertRead;
  afterPut: AlertRead;
  channel: ChannelRead;
  schedules: SchedulePage;
  muteStatus: MuteStatus;
  history: History;
  missing: ErrorBody;
}

export async function runCrud(baseUrl: string, key: string): Promise<CrudLog> {
  const steps: string[] = [];
  const call = async <T>(method: string, path: string, expected: number, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed = (await response.json()) as T;
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`);
    steps.push(`${method} ${path.replace(/[?].*$/, '')} ${response.status}`);
    return parsed;
  };

  const newChannel: CreateChannel = { type: 'webhook', description: 'codegen hook', destination: 'https://hooks.example.com/a' };
  const channelId = (await call<Created>('POST', '/v2/notifications/', 201, newChannel)).id;
  const channelRead = await call<ChannelRead>('GET', `/v2/notifications/${channelId}/`, 200);
  const channelUpdate: UpdateChannel = { ...channelRead, destination: 'https://hooks.example.com/b' };
  const channel = await call<ChannelRead>('PUT', `/v2/notifications/${channelId}/`, 200, channelUpdate);

  // Starts six hours from now and lasts at most twelve, so whatever the day it never covers now and the mute
  // status below reads only the manual mute.
  const sixHoursOn = new Date(Date.now() + 6 * 3_600_000 + 2 * 3_600_000);
  const startTime = `${String(sixHoursOn.getUTCHours()).padStart(2, '0')}:${String(sixHoursOn.getUTCMinutes()).padStart(2, '0')}`;
  const newSchedule: CreateSchedule = { name: 'codegen weekend', start_time: startTime, duration: 720, timezone: 'UTC+2', repeat: ['sat', 'sun'] };
  const scheduleId = (await call<Created>('POST', '/v2/schedules/', 201, newSchedule)).id;
  const scheduleRead = await call<ScheduleRead>('GET', `/v2/schedules/${scheduleId}/`, 200);
  const scheduleUpdate: UpdateSchedule = { ...scheduleRead, duration: 360 };
  await call<ScheduleRead>('PUT', `/v2/schedules/${scheduleId}/`, 200, scheduleUpdate);
  const schedules = await call<SchedulePage>('GET', '/v2/schedules/?repeat=sat', 200);

  const newAlert: CreateAlert = {
    name: 'codegen alert',
    metric: 'sumSeries(codegen.*.errors)',
    alert_criteria: { type: 'above', above_value: 5, time_period: 10 },
    additional_criteria: { b: { type: 'missing', time_period: 5, metric: 'codegen.heartbeat' } },
    expression: 'a || b',
    notification_channels: [channelId],
    notification_type: ['every', 15],
    scheduled_mutes: [scheduleId],
    info: 'generated client',
  };
  const alertId = (await call<Created>('POST', '/v2/alerts/', 201, newAlert)).id;
  const page = await call<AlertPage>('GET', `/v2/alerts/?search=heartbeat`, 200);
  const alert = page.alerts.find((item) => item.id === alertId);
  if (!alert) throw new Error('search did not find the alert');
  // A read object is a valid update body as it is: the round trip the generated types allow.
  const update: UpdateAlert = { ...alert, info: 'changed by PUT' };
  const afterPut = await call<AlertRead>('PUT', `/v2/alerts/${alertId}/`, 200, update);

  const mute: Mute = { duration: 30 };
  await call('POST', `/v2/alerts/${alertId}/muted/`, 200, mute);
  const muteStatus = await call<MuteStatus>('GET', `/v2/alerts/${alertId}/muted/`, 200);
  await call<BulkUnmute>('DELETE', '/v2/alerts/muted/', 200, { ids: [alertId] });
  const history = await call<History>('GET', `/v2/alerts/history/?alert_id=${alertId}&days=1`, 200);

  await call('DELETE', `/v2/alerts/${alertId}/`, 200);
  const missing = await call<ErrorBody>('GET', `/v2/alerts/${alertId}/`, 404);
  const deleted = await call<ChannelDeleted>('DELETE', `/v2/notifications/${channelId}/`, 200);
  if (deleted.alerts_changed !== 0) throw new Error('the alert was deleted first');
  await call('DELETE', `/v2/schedules/${scheduleId}/`, 200);
  return { steps, alert, afterPut, channel, schedules, muteStatus, history, missing };
}
