import { describeDuration } from './duration.js';
import { escapeControls, markdownCode, markdownText } from '../plan/render/escape.js';
import type { AlertImpact, ImpactChart, ImpactFigures, PlanImpact } from './types.js';

/** Charts in one comment at most: each is ~1 KB, and GitHub comments stop at 64 KiB. */
export const MAX_CHARTS = 20;

/** `2 alerts would have fired 9 times in 7 days` (or that none would have). */
export function renderImpactSummary(impact: PlanImpact): string {
  const firing = impact.alerts.filter((a) => a.fired > 0);
  const times = firing.reduce((sum, a) => sum + a.fired, 0);
  const window = describeDuration(impact.window_seconds);
  if (firing.length === 0) return `No changed alert would have fired in ${window}`;
  return `${firing.length} alert${firing.length === 1 ? '' : 's'} would have fired ${times} time${times === 1 ? '' : 's'} in ${window}`;
}

/** `Noise control: would have sent 3 messages instead of 140 (20 held by dependencies).` */
export function renderNoiseLine(noise: NonNullable<PlanImpact['noise']>): string {
  const messages = (n: number) => `${n} message${n === 1 ? '' : 's'}`;
  const held = noise.held > 0 ? ` (${noise.held} held by dependencies)` : '';
  return `Noise control: would have sent ${messages(noise.with)} instead of ${noise.without}${held}.`;
}

/** How the window was replayed, saying so when the data was coarser than the evaluator's 30 s. */
function describeReplay(impact: PlanImpact): string {
  const every = impact.step_seconds > 30 ? `every ${impact.step_seconds} s (the data's resolution over this window)` : 'every 30 s, as the server evaluates';
  return `Replayed ${every} from ${impact.from} to ${impact.until}`;
}

/** A figure, or `before → after` for an update. */
function pair(after: number, before: number | undefined): string {
  return before === undefined || before === after ? String(after) : `${before} → ${after}`;
}

function describeNotifications(
  figures: ImpactFigures,
  before: ImpactFigures | undefined,
  separator: string,
  escapeName: (name: string) => string = escapeControls,
): string {
  const names = [...new Set([...Object.keys(before?.notifications ?? {}), ...Object.keys(figures.notifications)])].sort();
  if (names.length === 0) return 'none';
  return names.map((name) => `${escapeName(name)} ${pair(figures.notifications[name] ?? 0, before ? (before.notifications[name] ?? 0) : undefined)}`).join(separator);
}

/** The backtest for a terminal: one line per alert, before → after for updates, then the summary. */
export function renderImpactText(impact: PlanImpact): string[] {
  const lines = [`Backtest over the last ${describeDuration(impact.window_seconds)}. ${describeReplay(impact)}:`];
  for (const a of impact.alerts) {
    lines.push(
      `  ${escapeControls(a.name)} (${a.action}): fired ${pair(a.fired, a.before?.fired)}, alerting ${pair(a.alerting_minutes, a.before?.alerting_minutes)} min, ` +
        `longest ${pair(a.longest_episode_minutes, a.before?.longest_episode_minutes)} min; notifications: ${describeNotifications(a, a.before, ', ')}`,
    );
  }
  for (const s of impact.skipped) lines.push(`  ${escapeControls(s.name)}: not backtested (${escapeControls(s.reason)})`);
  lines.push(`${renderImpactSummary(impact)}.`);
  if (impact.noise) lines.push(renderNoiseLine(impact.noise));
  return lines;
}

/** Inline code that survives any name inside a table. */
function code(text: string): string {
  return markdownCode(text, { table: true, backtick: "'" });
}

/** The backtest for a PR comment or job summary: the summary, a table, and a chart per changed alert. */
export function renderImpactMarkdown(impact: PlanImpact): string[] {
  const out = [`#### Backtest: ${renderImpactSummary(impact)}`, '', `_${describeReplay(impact)}._`, ''];
  if (impact.noise) out.push(`**${renderNoiseLine(impact.noise)}**`, '');
  if (impact.alerts.length > 0) {
    out.push('| Alert | Fired | Alerting (min) | Longest (min) | Notifications |', '|---|---:|---:|---:|---|');
    for (const a of impact.alerts) {
      out.push(
        `| ${code(a.name)} (${a.action}) | ${pair(a.fired, a.before?.fired)} | ${pair(a.alerting_minutes, a.before?.alerting_minutes)} | ` +
          `${pair(a.longest_episode_minutes, a.before?.longest_episode_minutes)} | ${describeNotifications(a, a.before, '<br>', markdownText)} |`,
      );
    }
    out.push('');
  }
  for (const s of impact.skipped) out.push(`- ${code(s.name)}: not backtested (${markdownText(s.reason)})`);
  if (impact.skipped.length > 0) out.push('');
  const charted = impact.alerts.filter((a) => a.chart).slice(0, MAX_CHARTS);
  if (charted.length > 0) {
    out.push('<details><summary>Charts: the worst series against its threshold, bars where the new version alerts</summary>', '');
    for (const a of charted) out.push(`**${code(a.name)}**`, '', ...renderMermaidChart(a.name, a.chart!, impact.window_seconds), '');
    if (impact.alerts.length > charted.length) out.push(`_${impact.alerts.length - charted.length} more alert(s) without a chart here; see the JSON plan._`, '');
    out.push('</details>', '');
  }
  return out;
}

/**
 * A mermaid `xychart-beta` GitHub renders: bars up to the top of the chart where the alert fires, the worst value
 * of its series per slot as a line, and one flat line per threshold. Gaps in the data repeat the last value
 * (xychart has no null).
 */
export function renderMermaidChart(name: string, chart: ImpactChart, windowSeconds: number): string[] {
  const known = chart.values.filter((v): v is number => v !== null);
  const top = niceCeiling(Math.max(1, ...known, ...chart.thresholds) * 1.1);
  const bottom = Math.min(0, ...known, ...chart.thresholds);
  let last = known[0] ?? 0;
  const line = chart.values.map((v) => (v === null ? last : (last = v)));
  const hours = Math.round(windowSeconds / 3600);
  return [
    '```mermaid',
    'xychart-beta',
    `  title "${escapeControls(name).replace(/"/g, "'")}"`,
    `  x-axis "hours" 0 --> ${hours}`,
    `  y-axis ${bottom} --> ${top}`,
    `  bar [${chart.firing.map((f) => (f ? top : 0)).join(', ')}]`,
    ...(known.length > 0 ? [`  line [${line.join(', ')}]`] : []),
    ...chart.thresholds.map((t) => `  line [${chart.values.map(() => t).join(', ')}]`),
    '```',
  ];
}

/** 1, 2 or 5 times a power of ten at or above `value`: a round top for the y axis. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  for (const m of [1, 2, 5, 10]) if (m * power >= value) return m * power;
  return 10 * power;
}

/** The backtest as `plan --json` shows it: per alert name, fired, alerting_minutes, notifications, before. */
export function toJsonImpact(impact: PlanImpact): Record<string, unknown> {
  return {
    ...impact,
    alerts: impact.alerts.map(({ chart: _chart, ...rest }: AlertImpact) => rest),
    summary: renderImpactSummary(impact),
    ...(impact.noise ? { noise: { ...impact.noise, summary: renderNoiseLine(impact.noise) } } : {}),
  };
}
