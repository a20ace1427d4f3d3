import { describe, expect, it } from 'vitest';
import { composePlanComment, renderChangedFiles } from '../../../src/action/compose.js';
import { applyResultJson, redactError, renderProgressLine } from '../../../src/apply/progress.js';
import { computePlan } from '../../../src/plan/compute.js';
import { fingerprintPlan } from '../../../src/plan/fingerprint.js';
import { renderPlanJson } from '../../../src/plan/render/json.js';
import { renderPlanMarkdown } from '../../../src/plan/render/markdown.js';
import { renderPlanText } from '../../../src/plan/render/text.js';
import { createSavedPlan, findStaleness } from '../../../src/plan/saved.js';
import { Redactor, SENSITIVE, displayKey, redactUrl, secretValuesOfDefinitions } from '../../../src/redact/index.js';
import { alertRead, channelRead, definitionsOf, NOW, stateOf } from '../plan/fixtures.js';

// A `${VAR}` inside an alert's name or a channel's description is a secret like any other: no output path shows
// it (change headers, JSON keys and ids, saved plans, apply progress and errors, the Action's comment).

const NAME_SECRET = 'tenant-9f8e7d6c';
const DESC_SECRET = 'pager-4a3b2c1d';
const ENV = { TENANT: NAME_SECRET, PAGER: DESC_SECRET };

const YAML = `
channels:
  - {description: "\${PAGER}", type: email, destination: ops@example.com}
alerts:
  - name: "cpu-\${TENANT}"
    metric: hosts.cpu
    alert_criteria: {type: above, above_value: 90}
    notification_channels: ["\${PAGER}"]
    muted: {until: "2026-03-01T14:00:00Z"}
  - name: "disk-\${TENANT}"
    metric: hosts.disk
    alert_criteria: {type: above, above_value: 80}
    notification_channels: [Email me]
`;

function secretPlan() {
  const definitions = definitionsOf(YAML, ENV);
  // disk-… exists and differs (an update); cpu-… and the channel are new.
  const actual = stateOf({ alerts: [alertRead({ id: 'a-disk', name: `disk-${NAME_SECRET}`, metric: 'hosts.disk', alert_criteria: { type: 'above', above_value: 70 } })] });
  return { definitions, actual, plan: computePlan(definitions, actual, NOW) };
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(NAME_SECRET);
  expect(text).not.toContain(DESC_SECRET);
}

describe('names and descriptions from the environment', () => {
  it('are masked in the change headers of the text and markdown renderings', () => {
    const { plan } = secretPlan();
    const text = renderPlanText(plan, { verbose: true });
    const markdown = renderPlanMarkdown(plan, { verbose: true });
    for (const out of [text, markdown]) expectNoSecret(out);
    expect(text).toContain(`+ create channel "${SENSITIVE}"`);
    expect(text).toContain(`+ create alert "${SENSITIVE}"`);
    expect(text).toContain(`~ update alert "${SENSITIVE}"`);
    expect(text).toContain(`± mute alert "${SENSITIVE}" for 120 minutes`);
    // The alert naming the secret channel shows that list masked, not the channel's description.
    expect(text).toContain(`+ notification_channels: ${SENSITIVE}`);
    expect(markdown).toContain(`#### + create alert \`${SENSITIVE}\``);
  });

  it('are masked in --json keys, step ids and dependsOn', () => {
    const { plan } = secretPlan();
    const json = renderPlanJson(plan);
    expectNoSecret(json);
    const parsed = JSON.parse(json) as { changes: { id: string; key: string; dependsOn: string[] }[] };
    expect(parsed.changes.map((c) => c.key)).toEqual(plan.changes.map(() => SENSITIVE));
    const create = parsed.changes.find((c) => c.id === `alert:${SENSITIVE}:create`)!;
    expect(create.dependsOn).toEqual([`channel:${SENSITIVE}:create`]);
  });

  it('are masked in a saved plan, which keeps the fingerprint apply compares against', () => {
    const { definitions, actual, plan } = secretPlan();
    const saved = createSavedPlan(plan, actual, { dir: '/defs', server: 'http://127.0.0.1:1', secrets: secretValuesOfDefinitions(definitions) });
    expectNoSecret(JSON.stringify(saved));
    expect(saved.remote.find((r) => r.id === 'a-disk')?.key).toBe(SENSITIVE);
    // Apply recomputes the plan from the definitions (the values are read again there) and compares fingerprints.
    expect(saved.fingerprint).toBe(fingerprintPlan(secretPlan().plan));
    // An object with a secret name that appears on the server before apply is named (sensitive) in the refusal.
    const appeared = stateOf({ alerts: [...actual.alerts, alertRead({ id: 'a-new', name: `cpu-${NAME_SECRET}` })] });
    expect(findStaleness(saved, appeared, secretValuesOfDefinitions(definitions))).toEqual([`alert "${SENSITIVE}" appeared`]);
  });

  it('are masked in apply progress, apply errors and the JSON result', () => {
    const { plan } = secretPlan();
    const channel = plan.changes.find((c) => c.kind === 'channel')!;
    const alert = plan.changes.find((c) => c.kind === 'alert' && c.action === 'create')!;
    const error = new Error(`POST http://k3y-secret@h/v2/notifications/ answered 409: description "${DESC_SECRET}" already exists`);
    const lines = [
      renderProgressLine({ type: 'done', change: alert, ms: 3 }),
      renderProgressLine({ type: 'failed', change: channel, error }),
      renderProgressLine({ type: 'skipped', change: alert, reason: `channel:${SENSITIVE}:create failed` }),
      redactError(channel, error.message),
      JSON.stringify(applyResultJson({ done: [alert], failed: [{ change: channel, error }], skipped: [] })),
    ];
    for (const line of lines) {
      expectNoSecret(line);
      expect(line).not.toContain('k3y-secret');
    }
    expect(lines[1]).toContain(`✗ create channel "${SENSITIVE}": POST http://${SENSITIVE}@h/v2/notifications/ answered 409: description "${SENSITIVE}" already exists`);
  });

  it('are masked in the Action comment and its changed-files table', () => {
    const { plan } = secretPlan();
    const files = renderChangedFiles({ ok: true, root: process.cwd(), files: ['defs.yaml'] }, plan.changes, process.cwd());
    const body = composePlanComment({ marker: '<!-- m -->', path: '.', plan, hash: fingerprintPlan(plan), changedFiles: files });
    expectNoSecret(body);
    expect(body).toContain(`+ alert \`${SENSITIVE}\``);
  });

  it('are masked in problems and warnings that name them', () => {
    const unresolved = computePlan(
      definitionsOf('alerts:\n  - {name: a1, metric: a.b, alert_criteria: {type: above, above_value: 1}, notification_channels: ["${PAGER}"]}\n', ENV),
      stateOf(),
      NOW,
    );
    expect(unresolved.problems.map((p) => p.message)).toEqual([`no channel "${SENSITIVE}" in these files or on the server`]);
    const definitions = definitionsOf(YAML, ENV);
    const alerting = stateOf({
      alerts: [alertRead({ id: 'a-disk', name: `disk-${NAME_SECRET}`, metric: 'hosts.disk', alert_criteria: { type: 'above', above_value: 70 }, status: 'alerting' })],
    });
    const plan = computePlan(definitions, alerting, NOW);
    expect(plan.warnings).toEqual([`alert "${SENSITIVE}" is alerting now; this update touches it`]);
    for (const out of [renderPlanText(unresolved), renderPlanJson(unresolved), renderPlanText(plan), renderPlanMarkdown(plan)]) expectNoSecret(out);
  });

  it('keeps names that did not come from the environment as they are', () => {
    const definitions = definitionsOf('alerts:\n  - {name: "cpu-${TENANT:-fallback}", metric: a.b, alert_criteria: {type: above, above_value: 1}}\n', {});
    const plan = computePlan(definitions, stateOf({ channels: [channelRead({ id: 'c1', description: 'x' })] }), NOW);
    expect(displayKey(plan.changes[0]!)).toBe('cpu-fallback');
    expect(renderPlanText(plan)).toContain('+ create alert "cpu-fallback"');
  });
});

describe('the one redactor', () => {
  it('replaces known values longest first, and URL user-info, with the one placeholder', () => {
    const redactor = new Redactor(['abcd', 'abcdefgh', 'no', undefined]);
    expect(redactor.redact('x abcdefgh y abcd z no')).toBe(`x ${SENSITIVE} y ${SENSITIVE} z no`);
    expect(redactUrl('see https://user:pw@host/x')).toBe(`see https://${SENSITIVE}@host/x`);
    expect(redactor.redactDeep({ abcd: ['abcd', 1] })).toEqual({ [SENSITIVE]: [SENSITIVE, 1] });
  });

  it('tells a listener about each new value once (the Action registers them with the runner)', () => {
    const seen: string[] = [];
    const redactor = new Redactor([], (value) => seen.push(value));
    redactor.add('secret-1');
    redactor.add('secret-1');
    redactor.add('');
    expect(seen).toEqual(['secret-1']);
  });
});
