/**
 * `npm run bench:cli`: cold start of the built CLI (bin/alertform on dist/, as a user runs it). Each figure is the
 * median wall time of N runs (BENCH_RUNS, default 15) of a fresh process, and is printed against its goal and
 * against a bare `node -e 0` measured in the same run (the floor no command can go under). Goals: `--version`
 * <= 0.15 s, `validate` of a 2-file repository <= 0.25 s. The median CPU time (user + system) of the same runs is
 * printed too: on a busy machine wall time waits for a core, CPU time does not. Figures only: nothing here fails
 * on a number.
 *
 * Then the CPU of `alertform serve` from its start to its "listening" line, and of `validate`, each from the
 * bundled entry (dist/cli/main.js, scripts/bundle-cli.mjs) against the same CLI loaded module by module from
 * tsc's tree (dist/cli/run.js), the baseline.
 *
 * The script builds dist/ first (`npm run build:dist`), so it always times the code of the work tree.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin/alertform');

interface Timing {
  wall: number;
  cpu: number;
}

/**
 * The median wall and CPU times in seconds of RUNS runs of `node ARGS`, after one warm-up run (which fills the OS
 * page cache). Each run goes through bash, whose `times` prints the CPU time of its children; the wall time is
 * taken around the whole, bash's own start (a few ms) included.
 */
function median(args: string[], cwd: string, env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' }): Timing {
  const walls: number[] = [];
  const cpus: number[] = [];
  const script = '"$0" "$@" >/dev/null 2>&1; status=$?; times; exit $status';
  for (let run = 0; run <= RUNS; run += 1) {
    const started = process.hrtime.bigint();
    const result = spawnSync('bash', ['-c', script, process.execPath, ...args], { cwd, encoding: 'utf8', env });
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
    // `times`: a line for the shell, then one for its children: "0m0.093s 0m0.021s" (user, system).
    const children = result.stdout.trim().split('\n').at(-1)!.match(/(\d+)m([\d.]+)s/g)!;
    const cpu = children.map((part) => {
      const [, minutes, seconds] = /(\d+)m([\d.]+)s/.exec(part)!;
      return Number(minutes) * 60 + Number(seconds);
    });
    if (run > 0) {
      walls.push(wall);
      cpus.push(cpu[0]! + cpu[1]!);
    }
  }
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { wall: middle(walls), cpu: middle(cpus) };
}

async function twoFileRepository(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-bench-cli-'));
  await writeFile(
    join(dir, 'channels.yaml'),
    'channels:\n  - description: ops-email\n    type: email\n    destination: ops@example.com\n',
  );
  await writeFile(
    join(dir, 'alerts.yaml'),
    [
      'alerts:',
      '  - name: api-5xx',
      '    metric: sumSeries(api.*.http.5xx)',
      '    alert_criteria: { type: above, above_value: 25, time_period: 5 }',
      '    notification_channels: [ops-email]',
      '  - name: api-latency',
      '    metric: api.latency.p99',
      '    alert_criteria: { type: above, above_value: 800, time_period: 10 }',
      '    notification_channels: [ops-email]',
      '',
    ].join('\n'),
  );
  return dir;
}

function build(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build:dist'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build:dist failed');
}

/** The median CPU seconds of RUNS starts of `node ARGS` as a server, to its "listening" line (from /proc). */
async function serverStart(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const cpus: number[] = [];
  for (let run = 0; run <= RUNS; run += 1) {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'ignore'] });
    const cpu = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.on('error', reject);
      child.on('exit', (code) => reject(new Error(`node ${args.join(' ')} exited ${code} before listening`)));
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (!out.includes('listening on http')) return;
        // utime and stime, the 14th and 15th fields of /proc/PID/stat (after the parenthesised name), in 100 Hz ticks.
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        resolve((Number(fields[11]) + Number(fields[12])) / 100);
      });
    });
    child.removeAllListeners('exit');
    child.kill();
    if (run > 0) cpus.push(cpu);
  }
  return cpus.sort((a, b) => a - b)[Math.floor(cpus.length / 2)]!;
}

/** Bundled (bin/alertform) against module by module (dist/cli/run.js): serve's start and validate, in CPU. */
async function bundleAgainstModules(dir: string, repo: string): Promise<void> {
  const modules = join(dir, 'module-by-module.mjs');
  await writeFile(modules, `import { runCommandLine } from ${JSON.stringify(pathToFileURL(join(ROOT, 'dist/cli/run.js')).href)};\nawait runCommandLine(process.argv);\n`);
  // Both with the compile cache, as bin/alertform runs: in a directory of this run's, filled by a first run of each.
  const env = { ...process.env, NO_COLOR: '1', NODE_COMPILE_CACHE: join(dir, 'compile-cache') };
  const serve = ['serve', '--port', '0', '--db', ':memory:', '--api-key', 'bench-cli-key-0123456789abcdef'];
  console.log(`CPU of a start, bundled (bin/alertform) against module by module (dist/cli/run.js), median of ${RUNS}`);
  for (const [what, bundled, baseline] of [
    ['alertform serve, to listening', await serverStart([BIN, ...serve], env), await serverStart([modules, ...serve], env)],
    ['alertform validate (2 files)', median([BIN, 'validate', repo], ROOT, env).cpu, median([modules, 'validate', repo], ROOT, env).cpu],
  ] as const) {
    console.log(`  ${what.padEnd(29)} ${bundled.toFixed(3)} s against ${baseline.toFixed(3)} s = ${(bundled / baseline).toFixed(2)}x`);
  }
}

build();
const repo = await twoFileRepository();
const scratch = await mkdtemp(join(tmpdir(), 'alertform-bench-cli-start-'));
try {
  const bare = median(['-e', '0'], ROOT);
  const rows: { what: string; time: Timing; goal: number }[] = [
    { what: 'alertform --version', time: median([BIN, '--version'], ROOT), goal: 0.15 },
    { what: 'alertform validate (2 files)', time: median([BIN, 'validate', repo], ROOT), goal: 0.25 },
    { what: 'alertform plan --help', time: median([BIN, 'plan', '--help'], ROOT), goal: 0.15 },
  ];
  console.log(`CLI cold start, median of ${RUNS} runs, node ${process.version}`);
  console.log(`  ${'node -e 0 (the floor)'.padEnd(29)} ${bare.wall.toFixed(3)} s wall, ${bare.cpu.toFixed(3)} s CPU`);
  for (const { what, time, goal } of rows) {
    const verdict = time.wall <= goal ? 'met' : 'MISSED';
    console.log(
      `  ${what.padEnd(29)} ${time.wall.toFixed(3)} s wall = ${(time.wall / goal).toFixed(2)}x the goal of ${goal} s (${verdict}), ` +
        `${(time.wall / bare.wall).toFixed(2)}x node -e 0; ${time.cpu.toFixed(3)} s CPU = ${(time.cpu / bare.cpu).toFixed(2)}x node -e 0`,
    );
  }
  await bundleAgainstModules(scratch, repo);
} finally {
  await rm(repo, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}
