import { AlertformClient } from '../../src/client/api.js';
import { readActualState } from '../../src/plan/state.js';

/** How long a way of reading the server's state took, and how many HTTP requests it made. */
export interface RefreshResult {
  ms: number;
  requests: number;
}

/** A fetch that counts the requests made through it. */
function countingFetch(): { fetch: typeof fetch; count: () => number } {
  let requests = 0;
  return {
    fetch: (input, init) => {
      requests += 1;
      return fetch(input, init);
    },
    count: () => requests,
  };
}

/** What alertform's plan does: one paginated list call per kind (100 a page). */
export async function refreshByLists(server: string, apiKey: string): Promise<RefreshResult & { ids: ResourceIds }> {
  const counter = countingFetch();
  const client = new AlertformClient({ server, apiKey, fetch: counter.fetch });
  const started = performance.now();
  const state = await readActualState(client);
  const ms = performance.now() - started;
  return {
    ms,
    requests: counter.count(),
    ids: {
      alerts: state.alerts.map((alert) => alert.id),
      channels: state.channels.map((channel) => channel.id),
      schedules: state.schedules.map((schedule) => schedule.id),
    },
  };
}

/** The ids of every object the server holds, by kind. */
export interface ResourceIds {
  alerts: string[];
  channels: string[];
  schedules: string[];
}

/**
 * What Terraform-style tools do: one GET per resource already in their state, `inFlight` at a time (Terraform's
 * default parallelism is 10). Every answer must be 200.
 */
export async function refreshPerResource(
  server: string,
  authorization: string,
  ids: ResourceIds,
  inFlight = 10,
): Promise<RefreshResult> {
  const paths = [
    ...ids.schedules.map((id) => `/v2/schedules/${id}/`),
    ...ids.channels.map((id) => `/v2/notifications/${id}/`),
    ...ids.alerts.map((id) => `/v2/alerts/${id}/`),
  ];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      const response = await fetch(`${server}${path}`, { headers: { authorization } });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { ms: performance.now() - started, requests: paths.length };
}
