import type { AlertformClient } from '../client/api.js';
import type { AlertRead, ChannelRead, MaintenanceWindowRead, MuteStatus, ScheduleRead } from '../model/types.js';

/** What the server has, read with one paginated list per kind. */
export interface ActualState {
  schedules: ScheduleRead[];
  channels: ChannelRead[];
  alerts: AlertRead[];
  /** Mute status of the alerts whose remaining mute time matters (definitions with `muted: {until}`). */
  muteStatus: Record<string, MuteStatus>;
  /** False when the server has no /v2/schedules/ endpoint (the hosted API documents none). */
  schedulesSupported: boolean;
  /** Maintenance windows (an alertform extension); absent: none read. */
  maintenanceWindows?: MaintenanceWindowRead[];
  /** False when the server has no /v2/maintenance_windows/ (the hosted service, an older alertform); absent: true. */
  maintenanceWindowsSupported?: boolean;
}

export function emptyActualState(): ActualState {
  return { schedules: [], channels: [], alerts: [], muteStatus: {}, schedulesSupported: true, maintenanceWindows: [], maintenanceWindowsSupported: true };
}

/** The server's lists, as read (schedules or windows `undefined` when the server has no such endpoint). */
export interface ServerLists {
  schedules: ScheduleRead[] | undefined;
  channels: ChannelRead[];
  alerts: AlertRead[];
  /** Absent: not read (lists from before windows); undefined inside: the server has none of the endpoint. */
  maintenanceWindows?: MaintenanceWindowRead[] | undefined;
}

/**
 * The lists in parallel; `signal` gives them up between pages. The first list to fail gives up the others at once
 * (their requests in flight and their retries): the read has failed, and its siblings would only go on loading a
 * server that is already failing, or answering too much, until they ended of their own.
 */
export async function readLists(client: AlertformClient, signal?: AbortSignal): Promise<ServerLists> {
  const failed = new AbortController();
  const either = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
  const read = <T>(list: (signal: AbortSignal) => Promise<T>) =>
    list(either).catch((error: unknown) => {
      failed.abort(error);
      throw error;
    });
  const [schedules, channels, alerts, maintenanceWindows] = await Promise.all([
    read((s) => client.listSchedules(s)),
    read((s) => client.listChannels(s)),
    read((s) => client.listAlerts(s)),
    read((s) => client.listMaintenanceWindows(s)),
  ]);
  return { schedules, channels, alerts, maintenanceWindows };
}

/**
 * Reads the server's state: the three lists in parallel (unless already read: `lists`), then the mute status of
 * the few muted alerts whose names are in `mutedUntil` (only those need the remaining minutes).
 */
export async function readActualState(client: AlertformClient, mutedUntil: ReadonlySet<string> = new Set(), lists?: ServerLists): Promise<ActualState> {
  const { schedules, channels, alerts, maintenanceWindows } = lists ?? (await readLists(client));
  const muteStatus: Record<string, MuteStatus> = {};
  const wanted = alerts.filter((a) => a.muted && mutedUntil.has(a.name));
  await Promise.all(wanted.map(async (alert) => (muteStatus[alert.id] = await client.getMuteStatus(alert.id))));
  return {
    schedules: schedules ?? [],
    channels,
    alerts,
    muteStatus,
    schedulesSupported: schedules !== undefined,
    maintenanceWindows: maintenanceWindows ?? [],
    maintenanceWindowsSupported: maintenanceWindows !== undefined,
  };
}
