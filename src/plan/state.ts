import type { AlertformClient } from '../client/api.js';
import type { AlertRead, ChannelRead, MuteStatus, ScheduleRead } from '../model/types.js';

/** What the server has, read with one paginated list per kind. */
export interface ActualState {
  schedules: ScheduleRead[];
  channels: ChannelRead[];
  alerts: AlertRead[];
  /** Mute status of the alerts whose remaining mute time matters (definitions with `muted: {until}`). */
  muteStatus: Record<string, MuteStatus>;
  /** False when the server has no /v2/schedules/ endpoint (the hosted API documents none). */
  schedulesSupported: boolean;
}

export function emptyActualState(): ActualState {
  return { schedules: [], channels: [], alerts: [], muteStatus: {}, schedulesSupported: true };
}

/** The server's three lists, as read (schedules `undefined` when the server has no /v2/schedules/). */
export interface ServerLists {
  schedules: ScheduleRead[] | undefined;
  channels: ChannelRead[];
  alerts: AlertRead[];
}

/** The three lists in parallel; `signal` gives them up between pages. */
export async function readLists(client: AlertformClient, signal?: AbortSignal): Promise<ServerLists> {
  const [schedules, channels, alerts] = await Promise.all([client.listSchedules(signal), client.listChannels(signal), client.listAlerts(signal)]);
  return { schedules, channels, alerts };
}

/**
 * Reads the server's state: the three lists in parallel (unless already read: `lists`), then the mute status of
 * the few muted alerts whose names are in `mutedUntil` (only those need the remaining minutes).
 */
export async function readActualState(client: AlertformClient, mutedUntil: ReadonlySet<string> = new Set(), lists?: ServerLists): Promise<ActualState> {
  const { schedules, channels, alerts } = lists ?? (await readLists(client));
  const muteStatus: Record<string, MuteStatus> = {};
  const wanted = alerts.filter((a) => a.muted && mutedUntil.has(a.name));
  await Promise.all(wanted.map(async (alert) => (muteStatus[alert.id] = await client.getMuteStatus(alert.id))));
  return { schedules: schedules ?? [], channels, alerts, muteStatus, schedulesSupported: schedules !== undefined };
}
