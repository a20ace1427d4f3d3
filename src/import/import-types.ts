import type { AdditionalCriterion, AlertCriteria, ChannelType, OnNoData, OnQueryFailure, Weekday } from '../model/types.js';

/** The tool a rule came from. */
export type ImportSource = 'moira' | 'grafana';

/** An alert as the import writes it: the definitions format's fields, defaults left out. */
export interface ImportedAlert {
  name: string;
  metric: string;
  alert_criteria: AlertCriteria;
  additional_criteria?: Record<string, AdditionalCriterion>;
  expression?: string;
  notification_channels?: string[];
  notification_type?: 'state_change' | ['every', number];
  scheduled_mutes?: string[];
  info?: string;
  on_query_failure?: OnQueryFailure;
  on_no_data?: OnNoData;
}

export interface ImportedChannel {
  description: string;
  type: ChannelType;
  destination: string;
  auto_resolve?: boolean;
}

export interface ImportedSchedule {
  name: string;
  start_time: string;
  duration: number;
  timezone?: string;
  repeat?: Weekday[];
}

/** A source field that did not come over as it was: what it was, and why. */
export interface DroppedField {
  field: string;
  /** The value as the source had it, shortened for the report. */
  value: string;
  why: string;
}

/** One source rule (a Moira trigger, a Grafana rule) and what became of it. */
export interface ImportedRule {
  /** The source's id (Moira trigger id, Grafana rule uid). */
  sourceId: string;
  title: string;
  /** The file (a Moira tag, a Grafana folder) its alerts go to, without extension. */
  group: string;
  /** The alerts it became: none when it could not be imported at all. */
  alerts: ImportedAlert[];
  /** Lines for the YAML comment above each of its alerts (where it came from, labels). */
  comments: string[];
  dropped: DroppedField[];
}

/** What an import made of a source: rules, the channels and schedules they use, and what was left behind. */
export interface ImportResult {
  source: ImportSource;
  rules: ImportedRule[];
  channels: ImportedChannel[];
  schedules: ImportedSchedule[];
  /** Source objects that are not rules (contacts, contact points) and did not come over. */
  droppedOther: { object: string; field: string; value: string; why: string }[];
}

/** A rule was imported whole, in part (some fields dropped), or not at all. */
export function ruleOutcome(rule: ImportedRule): 'complete' | 'partial' | 'not_imported' {
  if (rule.alerts.length === 0) return 'not_imported';
  return rule.dropped.length > 0 ? 'partial' : 'complete';
}

/** A source value as one short line for the report: JSON, cut at 120 characters. */
export function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
}
