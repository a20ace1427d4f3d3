import { Document, isSeq, stringify, type YAMLMap } from 'yaml';
import { escapeInterpolation } from '../definitions/interpolate.js';
import { ruleOutcome, type ImportResult, type ImportedRule } from './import-types.js';

/** A file the import writes. */
export interface ImportFile {
  name: string;
  text: string;
}

const TOOL_NAME = { moira: 'Moira', grafana: 'Grafana' } as const;

/**
 * The definitions an import writes: `alerts-GROUP.yaml` per Moira tag or Grafana folder, `channels.yaml` and
 * `schedules.yaml` when there are any, and `IMPORT-REPORT.md`. Each alert has a comment naming its source rule.
 * Nothing depends on the clock or the order the source listed things in: the same export gives the same files.
 */
export function renderImport(result: ImportResult, schemaPath: string): ImportFile[] {
  const tool = TOOL_NAME[result.source];
  const header = (note: string) => `# yaml-language-server: $schema=${schemaPath}\n# ${note}\n`;
  const files: ImportFile[] = [];
  if (result.channels.length > 0) {
    const channels = [...result.channels].sort((x, y) => x.description.localeCompare(y.description));
    files.push({ name: 'channels.yaml', text: header(`Imported from ${tool}. Destinations are credentials: replace them with \${VARIABLES} before committing.`) + dump({ channels }) });
  }
  if (result.schedules.length > 0) {
    const schedules = [...result.schedules].sort((x, y) => x.name.localeCompare(y.name));
    files.push({ name: 'schedules.yaml', text: header(`Imported from ${tool}: the hours its triggers were not checked, as scheduled mutes.`) + dump({ schedules }) });
  }
  const byGroup = new Map<string, ImportedRule[]>();
  for (const rule of result.rules) if (rule.alerts.length > 0) byGroup.set(rule.group, [...(byGroup.get(rule.group) ?? []), rule]);
  const taken = new Set<string>();
  for (const group of [...byGroup.keys()].sort()) {
    let slug = slugOf(group);
    for (let n = 2; taken.has(slug); n += 1) slug = `${slugOf(group)}-${n}`;
    taken.add(slug);
    const what = result.source === 'moira' ? `tag "${group}"` : `folder "${group}"`;
    files.push({ name: `alerts-${slug}.yaml`, text: header(`Imported from ${tool}, ${commentSafe(what)}. See IMPORT-REPORT.md for what did not come over.`) + alertsYaml(byGroup.get(group)!) });
  }
  files.push({ name: 'IMPORT-REPORT.md', text: renderReport(result, files.map((f) => f.name)) });
  return files;
}

function alertsYaml(rules: ImportedRule[]): string {
  const document = new Document({ alerts: rules.flatMap((rule) => rule.alerts.map((alert) => escapeStrings(inFieldOrder(alert)))) });
  const seq = (document.contents as YAMLMap).get('alerts', true);
  if (isSeq(seq)) {
    let index = 0;
    for (const rule of rules) {
      for (const _ of rule.alerts) {
        const node = seq.items[index++] as { commentBefore?: string | null } | undefined;
        if (node) node.commentBefore = rule.comments.map((line) => ` ${commentSafe(line)}`).join('\n');
      }
    }
  }
  return document.toString({ lineWidth: 0 });
}

/** The order `pull` writes an alert's fields in, so that imported and pulled files read alike. */
const ALERT_FIELDS = ['name', 'metric', 'alert_criteria', 'additional_criteria', 'expression', 'notification_channels', 'notification_type', 'scheduled_mutes', 'info', 'on_query_failure', 'on_no_data'];

function inFieldOrder(alert: object): Record<string, unknown> {
  const fields = alert as Record<string, unknown>;
  return Object.fromEntries(ALERT_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]));
}

function dump(value: unknown): string {
  return stringify(escapeStrings(value), { lineWidth: 0 });
}

/** `${` escaped in every string, or plan would interpolate text that came from the source. */
function escapeStrings<T>(value: T): T {
  if (typeof value === 'string') return escapeInterpolation(value) as T;
  if (Array.isArray(value)) return value.map(escapeStrings) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escapeStrings(v)])) as T;
  return value;
}

/** Source text inside a YAML comment: one line, no control characters (a newline would end the comment). */
function commentSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}

function slugOf(group: string): string {
  return group.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'untagged';
}

/** IMPORT-REPORT.md: the counts, then every rule not imported whole, field by field, then other objects left out. */
export function renderReport(result: ImportResult, files: string[]): string {
  const tool = TOOL_NAME[result.source];
  const counts = { complete: 0, partial: 0, not_imported: 0 };
  for (const rule of result.rules) counts[ruleOutcome(rule)] += 1;
  const lines = [
    `# Import report: ${tool}`,
    '',
    `${result.rules.length} ${result.source === 'moira' ? 'trigger' : 'rule'}(s): ${counts.complete} imported whole, ${counts.partial} in part, ${counts.not_imported} not imported; ` +
      `${result.rules.reduce((n, r) => n + r.alerts.length, 0)} alert(s), ${result.channels.length} channel(s), ${result.schedules.length} scheduled mute(s).`,
    '',
    `Files: ${files.map((f) => `\`${f}\``).join(', ')}. Review them, run \`alertform validate\` and \`alertform plan\`, then open a pull request.`,
  ];
  const section = (title: string, rules: ImportedRule[]) => {
    if (rules.length === 0) return;
    lines.push('', `## ${title}`, '', '| rule | source id | field | value | why |', '| --- | --- | --- | --- | --- |');
    for (const rule of rules) for (const d of rule.dropped) lines.push(`| ${cell(rule.title)} | ${cell(rule.sourceId)} | ${cell(d.field)} | ${cell(d.value)} | ${cell(d.why)} |`);
  };
  section('Not imported', result.rules.filter((r) => ruleOutcome(r) === 'not_imported'));
  section('Imported in part', result.rules.filter((r) => ruleOutcome(r) === 'partial'));
  if (result.droppedOther.length > 0) {
    lines.push('', '## Other objects left out', '', '| object | field | value | why |', '| --- | --- | --- | --- |');
    for (const d of result.droppedOther) lines.push(`| ${cell(d.object)} | ${cell(d.field)} | ${cell(d.value)} | ${cell(d.why)} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** Text in a Markdown table cell: pipes, backticks, angle brackets and line breaks cannot break the table. */
function cell(text: string): string {
  return commentSafe(text).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/`/g, "'") || ' ';
}
