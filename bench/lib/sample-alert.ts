/** The alert every benchmark writes and reads: a plain threshold alert, as most definitions repos hold. */
export function sampleAlertBody(name: string, metric = `bench.${name.replace(/\W+/g, '_')}.cpu`) {
  return {
    name,
    metric,
    alert_criteria: { type: 'above', above_value: 90, time_period: 5 },
    notification_type: ['every', 60],
    info: 'created by an alertform benchmark',
  };
}

/** What the server answers for sampleAlertBody: the baseline serves this, so both send the same bytes. */
export function sampleAlertRead(id: string, name: string) {
  const body = sampleAlertBody(name);
  return {
    id,
    name,
    metric: body.metric,
    alert_criteria: body.alert_criteria,
    additional_criteria: {},
    expression: 'a',
    notification_channels: ['f'.repeat(32)],
    notification_type: body.notification_type,
    scheduled_mutes: [],
    currently_triggered_metrics: [],
    muted: false,
    status: 'healthy',
    info: body.info,
    on_query_failure: null,
  };
}

/** Creates `count` sample alerts named `${prefix}00000`... as plain POSTs, `inFlight` at a time; returns their ids. */
export async function postSampleAlerts(
  url: string,
  authorization: string,
  options: { count: number; inFlight: number; prefix: string },
): Promise<string[]> {
  const ids: string[] = new Array(options.count);
  let next = 0;
  const worker = async () => {
    while (next < options.count) {
      const index = next++;
      const response = await fetch(`${url}/v2/alerts/`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(sampleAlertBody(`${options.prefix}${String(index).padStart(5, '0')}`)),
      });
      if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
      ids[index] = ((await response.json()) as { id: string }).id;
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, worker));
  return ids;
}
