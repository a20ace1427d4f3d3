/**
 * `npm run bench:render`: what redaction costs the renderings. A plan of 3,000 alert creates is rendered as text,
 * markdown and JSON twice: with every alert name and the channel's key from `${VAR}` (3,001 secret values, all
 * masked by path and then searched for in the output by the Redactor), and the same plan with the values written
 * in the file (nothing secret, so no search). Prints the median time of each and the ratio, measured in the same
 * process so that the machine's load weighs on both alike. Goal: at most 2x for each rendering.
 */
import { loadDefinitions } from '../src/definitions/load.js';
import { computePlan } from '../src/plan/compute.js';
import { emptyActualState } from '../src/plan/state.js';
import { renderPlanJson } from '../src/plan/render/json.js';
import { renderPlanMarkdown } from '../src/plan/render/markdown.js';
import { renderPlanText } from '../src/plan/render/text.js';
import type { Plan } from '../src/plan/types.js';

const ALERTS = Number(process.env.BENCH_ALERTS ?? 3000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const NOW = new Date('2026-03-01T12:00:00Z');

function planOf(env: Record<string, string>): Plan {
  const alerts = Array.from(
    { length: ALERTS },
    (_, i) => `  - {name: "svc-${i}-\${TENANT:-tenant-plain-1234}", metric: a.b${i}, alert_criteria: {type: above, above_value: ${i}}, notification_channels: [pd]}`,
  ).join('\n');
  const yaml = `channels:\n  - {description: pd, type: pagerduty, destination: "\${PD:-pd-plain-key-5678}"}\nalerts:\n${alerts}\n`;
  const loaded = loadDefinitions([{ path: 'bench.yaml', text: yaml }], { env });
  if (loaded.problems.length > 0) throw new Error(JSON.stringify(loaded.problems.slice(0, 3)));
  return computePlan(loaded.definitions, emptyActualState(), NOW);
}

function median(fn: () => unknown): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

const secret = planOf({ TENANT: 'tenant-secret-1234', PD: 'pd-secret-key-5678' });
const plain = planOf({});
console.log(`redaction cost of the renderings: ${ALERTS} alert creates, median of ${RUNS} runs`);
for (const [name, render] of [
  ['text', (plan: Plan) => renderPlanText(plan)],
  ['markdown', (plan: Plan) => renderPlanMarkdown(plan)],
  ['json', (plan: Plan) => renderPlanJson(plan)],
] as const) {
  // A fresh plan object each time: redactorForPlan caches per plan, and each CLI run renders a new plan.
  const withSecrets = median(() => render({ ...secret }));
  const without = median(() => render({ ...plain }));
  console.log(`  ${name.padEnd(8)} ${withSecrets.toFixed(0).padStart(5)} ms with ${ALERTS + 1} secret names, ${without.toFixed(0).padStart(5)} ms without: ${(withSecrets / without).toFixed(2)}x`);
}
