import type { ReadReporter } from '../progress/reads.js';
import type {
  AlertBody,
  AlertRead,
  ChannelBody,
  ChannelRead,
  CreatedResponse,
  DeliveryRead,
  HistoryEntry,
  MaintenanceWindowBody,
  MaintenanceWindowRead,
  MuteStatus,
  ScheduleBody,
  ScheduleRead,
} from '../model/types.js';
import { ApiResponseError, isNotFound, isTransient } from './errors.js';
import { HttpClient, type HttpOptions } from './http.js';
import { parseServerUrl } from './connection.js';

/**
 * The header alertform's apply sends on alert writes: a server that knows it (alertform serve) marks the alert
 * "managed from git" (the console says a change made there shows as drift in the next plan); others ignore it.
 */
export const MANAGED_FROM_GIT_HEADER = 'x-alertform-managed';
const MANAGED_FROM_GIT = { [MANAGED_FROM_GIT_HEADER]: 'git' };

/** One entry of alertform's alert timeline (GET /v2/alerts/{id}/timeline/). */
export interface TimelineEntry {
  /** Unix seconds. */
  time: number;
  kind: string;
  metric: string | null;
  value: number | null;
  channel: { id: string; type: string; description: string } | null;
  reason: string | null;
}

/** The list endpoints and the field each page's items come in. */
const LISTS = {
  alerts: { path: 'v2/alerts/', field: 'alerts' },
  channels: { path: 'v2/notifications/', field: 'notifications' },
  // The public docs' key; alertform servers before 0.2 answered `schedules`, read as a fallback.
  schedules: { path: 'v2/schedules/', field: 'scheduled_mutes', legacyField: 'schedules' },
  deliveries: { path: 'v2/deliveries/', field: 'deliveries' },
  maintenanceWindows: { path: 'v2/maintenance_windows/', field: 'maintenance_windows' },
} as const;

export const PAGE_SIZE = 100;

/** Options for a client: the server URL (may carry the key as user-info) and an explicit key. */
export interface ClientOptions extends HttpOptions {
  server: string;
  apiKey?: string;
  /** Told after each page of a list (the CLI's status line on a terminal). */
  reportRead?: ReadReporter;
}

/**
 * A typed client of the /v2 API that works against alertform's server and the hosted service alike: reads by
 * paginated lists, retries idempotent calls, and never duplicates a create.
 */
export class AlertformClient {
  readonly http: HttpClient;
  private readonly reportRead: ReadReporter | undefined;

  constructor(options: ClientOptions) {
    this.http = new HttpClient(parseServerUrl(options.server, options.apiKey), options);
    this.reportRead = options.reportRead;
  }

  /** Every item of a list, page by page (100 a page). `next_page` may be a boolean or the next page's number. */
  async listAll<T>(list: keyof typeof LISTS, filter?: URLSearchParams, signal?: AbortSignal): Promise<T[]> {
    const { path, field } = LISTS[list];
    const legacyField = 'legacyField' in LISTS[list] ? (LISTS[list] as { legacyField: string }).legacyField : undefined;
    const items: T[] = [];
    let page = 1;
    for (;;) {
      const params = new URLSearchParams(filter);
      params.set('page', String(page));
      params.set('max', String(PAGE_SIZE));
      signal?.throwIfAborted();
      const body = await this.http.request<Record<string, unknown>>('GET', path, { searchParams: params, idempotent: true, ...(signal ? { signal } : {}) });
      const pageItems = (body[field] ?? (legacyField ? body[legacyField] : undefined) ?? []) as T[];
      items.push(...pageItems);
      this.reportRead?.({ kind: 'list', list, items: items.length });
      const next = body.next_page;
      if (pageItems.length === 0 || next === false || next === null || next === undefined || next === 0) return items;
      page = typeof next === 'number' ? next : typeof next === 'string' && /^\d+$/.test(next) ? Number(next) : page + 1;
    }
  }

  listAlerts(signal?: AbortSignal): Promise<AlertRead[]> {
    return this.listAll<AlertRead>('alerts', undefined, signal);
  }

  listChannels(signal?: AbortSignal): Promise<ChannelRead[]> {
    return this.listAll<ChannelRead>('channels', undefined, signal);
  }

  /** The account's outbox deliveries in `states` (alertform's server only), oldest first. */
  listDeliveries(states: DeliveryRead['state'][]): Promise<DeliveryRead[]> {
    const filter = new URLSearchParams();
    for (const state of states) filter.append('state', state);
    return this.listAll<DeliveryRead>('deliveries', filter);
  }

  /** Schedules; `undefined` when the server has no /v2/schedules/ (the hosted API documents none). */
  async listSchedules(signal?: AbortSignal): Promise<ScheduleRead[] | undefined> {
    try {
      return await this.listAll<ScheduleRead>('schedules', undefined, signal);
    } catch (error) {
      if (error instanceof ApiResponseError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** Maintenance windows (an alertform extension); `undefined` when the server has no /v2/maintenance_windows/. */
  async listMaintenanceWindows(signal?: AbortSignal): Promise<MaintenanceWindowRead[] | undefined> {
    try {
      return await this.listAll<MaintenanceWindowRead>('maintenanceWindows', undefined, signal);
    } catch (error) {
      if (error instanceof ApiResponseError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** alertform's own timeline of one alert (GET /v2/alerts/{id}/timeline/), newest first. */
  getAlertTimeline(id: string, days: number): Promise<{ entries: TimelineEntry[] }> {
    return this.http.request('GET', `v2/alerts/${encodeURIComponent(id)}/timeline/`, { searchParams: new URLSearchParams({ days: String(days) }), idempotent: true });
  }

  /** The documented history of one alert (GET /v2/alerts/history/?id=), newest first. */
  async getAlertHistory(id: string, days: number): Promise<HistoryEntry[]> {
    const body = await this.http.request<Record<string, HistoryEntry[]>>('GET', 'v2/alerts/history/', {
      searchParams: new URLSearchParams({ id, days: String(days) }),
      idempotent: true,
    });
    return body[id] ?? [];
  }

  async findAlertId(name: string): Promise<string | undefined> {
    const found = await this.listAll<AlertRead>('alerts', new URLSearchParams({ name }));
    return found.find((a) => a.name === name)?.id;
  }

  async findChannelId(description: string): Promise<string | undefined> {
    const found = await this.listAll<ChannelRead>('channels', new URLSearchParams({ description }));
    return found.find((c) => c.description === description)?.id;
  }

  async findScheduleId(name: string): Promise<string | undefined> {
    const found = await this.listAll<ScheduleRead>('schedules', new URLSearchParams({ name }));
    return found.find((s) => s.name === name)?.id;
  }

  /** The window of this exact name: `?search=` narrows the list, the name decides. */
  async findMaintenanceWindowId(name: string): Promise<string | undefined> {
    const found = await this.listAll<MaintenanceWindowRead>('maintenanceWindows', new URLSearchParams({ search: name }));
    return found.find((w) => w.name === name)?.id;
  }

  /** Alert writes carry MANAGED_FROM_GIT_HEADER: they come from definitions (apply is their only caller). */
  createAlert(body: AlertBody): Promise<string> {
    return this.createOnce('v2/alerts/', body, () => this.findAlertId(body.name), MANAGED_FROM_GIT);
  }

  createChannel(body: ChannelBody): Promise<string> {
    return this.createOnce('v2/notifications/', body, () => this.findChannelId(body.description));
  }

  createSchedule(body: ScheduleBody): Promise<string> {
    return this.createOnce('v2/schedules/', body, () => this.findScheduleId(body.name));
  }

  createMaintenanceWindow(body: MaintenanceWindowBody): Promise<string> {
    return this.createOnce('v2/maintenance_windows/', body, () => this.findMaintenanceWindowId(body.name));
  }

  updateMaintenanceWindow(id: string, body: Partial<MaintenanceWindowBody>): Promise<unknown> {
    return this.http.request('PUT', `v2/maintenance_windows/${encodeURIComponent(id)}/`, { json: body, idempotent: true });
  }

  deleteMaintenanceWindow(id: string): Promise<void> {
    return this.deleteOnce(`v2/maintenance_windows/${encodeURIComponent(id)}/`);
  }

  updateAlert(id: string, body: Partial<AlertBody>): Promise<unknown> {
    return this.http.request('PUT', `v2/alerts/${encodeURIComponent(id)}/`, { json: body, idempotent: true, headers: MANAGED_FROM_GIT });
  }

  updateChannel(id: string, body: Partial<ChannelBody>): Promise<unknown> {
    return this.http.request('PUT', `v2/notifications/${encodeURIComponent(id)}/`, { json: body, idempotent: true });
  }

  updateSchedule(id: string, body: Partial<ScheduleBody>): Promise<unknown> {
    return this.http.request('PUT', `v2/schedules/${encodeURIComponent(id)}/`, { json: body, idempotent: true });
  }

  deleteAlert(id: string): Promise<void> {
    return this.deleteOnce(`v2/alerts/${encodeURIComponent(id)}/`);
  }

  deleteChannel(id: string): Promise<void> {
    return this.deleteOnce(`v2/notifications/${encodeURIComponent(id)}/`);
  }

  deleteSchedule(id: string): Promise<void> {
    return this.deleteOnce(`v2/schedules/${encodeURIComponent(id)}/`);
  }

  muteAlert(id: string, minutes: number): Promise<unknown> {
    return this.http.request('POST', `v2/alerts/${encodeURIComponent(id)}/muted/`, { json: { duration: minutes }, idempotent: true });
  }

  unmuteAlert(id: string): Promise<unknown> {
    return this.http.request('DELETE', `v2/alerts/${encodeURIComponent(id)}/muted/`, { idempotent: true });
  }

  /**
   * alertform serve's readiness report (GET /readyz, no key needed): its checks, with warnings. Not retried, and a
   * 503 (not ready) throws like any other answer: callers read it only for what it says in passing.
   */
  getReadiness(): Promise<{ status?: string; checks?: { name?: unknown; ready?: unknown; warning?: unknown }[] } | undefined> {
    return this.http.request('GET', 'readyz', { idempotent: false });
  }

  getMuteStatus(id: string): Promise<MuteStatus> {
    return this.http.request<MuteStatus>('GET', `v2/alerts/${encodeURIComponent(id)}/muted/`, { idempotent: true });
  }

  /**
   * Acknowledges the alert's alerting episode (an alertform extension: POST /v2/alerts/{id}/ack/). Safe to retry: a
   * repeat replaces the acknowledgement and tells the channels nothing again.
   */
  acknowledgeAlert(id: string, body: { by: string; note?: string; until?: string }): Promise<AlertRead> {
    return this.http.request<AlertRead>('POST', `v2/alerts/${encodeURIComponent(id)}/ack/`, { json: body, idempotent: true });
  }

  /** Withdraws the alert's acknowledgement; `by` names who, in its history. */
  withdrawAcknowledgement(id: string, by: string): Promise<AlertRead> {
    return this.http.request<AlertRead>('DELETE', `v2/alerts/${encodeURIComponent(id)}/ack/`, { searchParams: new URLSearchParams({ by }), idempotent: true });
  }

  /** Bulk mute: the union of `ids` and `search` matches; both empty means every alert (callers must ask for it). */
  bulkMute(selection: { ids?: string[]; search?: string }, minutes: number): Promise<{ ids: string[]; duration: number }> {
    return this.http.request('POST', 'v2/alerts/muted/', { json: { ...selection, duration: minutes }, idempotent: true });
  }

  bulkUnmute(selection: { ids?: string[]; search?: string }): Promise<{ ids: string[] }> {
    return this.http.request('DELETE', 'v2/alerts/muted/', { json: selection, idempotent: true });
  }

  /**
   * A create that is never duplicated: when an attempt gets no usable answer, the object is looked up by its name
   * before trying again, and a 409 after such an attempt means our earlier attempt landed.
   */
  private async createOnce(path: string, body: object, lookup: () => Promise<string | undefined>, headers?: Record<string, string>): Promise<string> {
    let uncertain = false;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const created = await this.http.once<CreatedResponse>('POST', path, { json: body, ...(headers ? { headers } : {}) });
        return created.id;
      } catch (error) {
        if (uncertain && error instanceof ApiResponseError && error.status === 409) {
          const id = await lookup();
          if (id) return id;
        }
        if (!isTransient(error) || attempt >= this.http.retry.retries) throw error;
        uncertain = true;
        await this.http.waitToRetry(error, attempt + 1);
        const id = await this.lookupQuietly(lookup);
        if (id) return id;
      }
    }
  }

  private async lookupQuietly(lookup: () => Promise<string | undefined>): Promise<string | undefined> {
    return lookup();
  }

  /** Deletes are idempotent: an object already gone (400 or 404 not-found) counts as deleted. */
  private async deleteOnce(path: string): Promise<void> {
    try {
      await this.http.request('DELETE', path, { idempotent: true });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
