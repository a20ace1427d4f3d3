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
