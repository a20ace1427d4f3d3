import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { createServerLogger, type LogFormat } from '../../server/log-destination.js';
import { startServer, type RunningServer } from '../../server/index.js';
import { AlertformClient } from '../../client/api.js';
import { planProject, type ProjectPlan } from '../../plan/plan-project.js';
import { renderPlanText } from '../../plan/render/text.js';
import { applyPlan } from '../../apply/run.js';
import { renderApplySummary, renderProgressLine } from '../../apply/progress.js';
import { CliError } from '../errors.js';
import { DEMO_STREAM_METRIC, startDemoGraphite, startDemoRelay } from './demo-graphite.js';
import { startDemoMailSink } from './demo-mail.js';
import { failWithProblems, optionsOf, useColor, writeOut } from '../context.js';

/** The package's root and its examples/, wherever the command runs from (src/ or dist/ are two levels below it). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLES = join(PACKAGE_ROOT, 'examples');

/**
 * What the demo plans and how its hints call alertform, so that they work where the user stands: in a clone
 * (`./bin/alertform`, `examples`), or with an installed package, which has neither: the examples are then copied
 * into the demo's directory (to edit freely) and the command is `npx alertform` or `alertform`.
 */
function demoSetting(dir: string): { examples: string; shownExamples: string; cli: string; again: string } {
  if (resolve(process.cwd()) === resolve(PACKAGE_ROOT)) {
    return { examples: EXAMPLES, shownExamples: 'examples', cli: './bin/alertform', again: '`npm run demo`' };
  }
  const examples = join(dir, 'examples');
  if (!existsSync(examples)) cpSync(EXAMPLES, examples, { recursive: true });
  const script = resolve(process.argv[1] ?? '');
  const local = script.startsWith(resolve('node_modules') + '/');
  const cli = local ? 'npx alertform' : 'alertform';
  return { examples, shownExamples: relative(process.cwd(), examples) || '.', cli, again: `\`${cli} demo\`` };
}

/** The demo key: made once, kept next to the database so a second run reuses both. */
function demoKey(dir: string): string {
  const path = join(dir, 'demo-key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const key = `demo-${randomBytes(12).toString('hex')}`;
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}

/**
 * The demo server: it evaluates the examples every 5 s against the built-in demo Graphite (which also takes the
 * VictorOps, PagerDuty and OpsGenie notifications), so the console shows an alert alerting, its graph, history and deliveries.
 */
async function startDemoServer(db: string, key: string, port: number, graphiteUrl: string, smtpUrl: string): Promise<RunningServer> {
  // Readable lines on a terminal, as `serve` writes them (ALERTFORM_LOG_FORMAT=json for JSON lines).
  const format = (process.env.ALERTFORM_LOG_FORMAT ?? 'auto') as LogFormat;
  const logger = createServerLogger(process.env.ALERTFORM_LOG_LEVEL ?? 'warn', { format });
  const options = {
    host: '127.0.0.1',
    db,
    apiKeys: [key],
    logger,
    graphiteUrl,
    evalIntervalSeconds: 5,
    // The demo's Graphite makes every point at once, complete: nothing arrives late, so nothing to wait for.
    settleDelaySeconds: 0,
    notifierUrls: { victorops: graphiteUrl, pagerduty: graphiteUrl, opsgenie: graphiteUrl },
    // The demo's email channel delivers to the built-in mail sink (demo-mail.ts) instead of dead-lettering.
    smtpUrl,
    smtpFrom: 'alertform-demo@localhost',
    // The demo relay (demo-graphite.ts) sends the example metrics here too: alerts it can judge on the stream are.
    carbon: { plaintext: '127.0.0.1:0' },
  };
  try {
    return await startServer({ ...options, port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && port !== 0) return startServer({ ...options, port: 0 });
    throw error;
  }
}

/** Starts the server, plans and applies examples/, plans again (empty), then serves until Ctrl-C (or exits). */
export async function runDemo(command: Command): Promise<void> {
  const opts = optionsOf<{ dir: string; port: number; exit?: boolean }>(command);
  // Owner only: the directory holds the demo key and the database.
  mkdirSync(opts.dir, { recursive: true, mode: 0o700 });
  const key = demoKey(opts.dir);
  const db = join(opts.dir, 'alertform.db');
  const graphite = await startDemoGraphite();
  const mail = await startDemoMailSink();
  const server = await startDemoServer(db, key, opts.port, graphite.url, mail.url).catch(async (error: unknown) => {
    await graphite.close();
    await mail.close();
    throw error;
  });
  const color = useColor(opts);
  const setting = demoSetting(opts.dir);
  try {
    const serverUrl = server.url.replace('http://', `http://${key}@`);
    await writeOut(
      `alertform demo: the bundled /v2 server on SQLite (${db})\n` +
        `  server: ${server.url}\n  demo API key: ${key}\n\n`,
    );
    const client = new AlertformClient({ server: serverUrl });
    const planExamples = async (): Promise<Extract<ProjectPlan, { status: 'planned' }>> => {
      const result = await planProject({ dir: setting.examples, server: { client, printable: server.url } });
      if (result.status === 'invalid') failWithProblems(result.problems);
      return result;
    };

    await writeOut(`== 1. plan ${setting.shownExamples}/ against the server\n\n`);
    const first = await planExamples();
    await writeOut(renderPlanText(first.plan, { color }));
    if (first.plan.problems.length > 0) throw new CliError('the demo plan has errors');

    await writeOut(`\n== 2. apply it\n\n`);
    const result = await applyPlan(first.plan, first.actual, client, { onEvent: (event) => process.stdout.write(`${renderProgressLine(event)}\n`) });
    await writeOut(`${renderApplySummary(result)}\n`);
    if (result.failed.length > 0) throw new CliError('some demo steps failed');

    await writeOut(`\n== 3. plan again: nothing left to do\n\n`);
    const second = await planExamples();
    await writeOut(renderPlanText(second.plan, { color }));

    const short = `http://${key}@127.0.0.1:${server.port}`;
    await writeOut(
      `\nTry it yourself (edit a file in ${setting.shownExamples}/ first):\n` +
        `  ${setting.cli} plan ${setting.shownExamples} --server ${short}\n` +
        `  ${setting.cli} apply ${setting.shownExamples} --server ${short}\n` +
        `  ${setting.cli} pull --out /tmp/pulled --server ${short}\n`,
    );
    // With --exit the server stops now: no console to advertise.
    if (opts.exit) {
      await writeOut(`\nThe demo server stops now (--exit); without --exit it keeps running, with its web console.\n`);
      return;
    }
    const carbonPort = server.carbon?.addresses.plaintext?.port;
    const relay = carbonPort
      ? startDemoRelay(carbonPort, graphite, (at) => {
          void writeOut(`\n[demo relay] ${new Date(at * 1000).toISOString()}: ${DEMO_STREAM_METRIC} reads 12 (above 5): shop-payments-timeouts is judged on the stream and pages within seconds of the bucket's last point.\n`);
        })
      : null;
    await writeOut(
      `\nThe demo relay sends the example metrics to the server's carbon listener (127.0.0.1:${carbonPort}) every 10 s: the\n` +
        `  alerts whose queries alertform evaluates itself are judged on that stream (the console's alert page says\n` +
        `  "Evaluated: on the metric stream"); in a minute the payment gateway's timeouts breach, and its alert pages.\n`,
    );
    await writeOut(
      `\nOpen the web console: ${server.url}/ and sign in with the demo API key above.\n` +
        `  The demo Graphite (built in) makes shop-host-disk-full alert: web-2's disk is over 90%.\n` +
        `  Its notifications stay on this machine: VictorOps, PagerDuty and OpsGenie go to the demo Graphite, email to a\n` +
        `  built-in mail sink (${mail.url}); Slack and webhook channels point at placeholders until you set them.\n`,
    );
    await writeOut(`\nThe server keeps running: Ctrl-C stops it; ${setting.again} again reuses ${opts.dir}/ (delete it to start over).\n`);
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    relay?.close();
  } finally {
    await server.close();
    await graphite.close();
    await mail.close();
  }
}
