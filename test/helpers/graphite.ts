import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasCommand, systemPart } from './system.js';
import { freePorts } from './free-port.js';

/**
 * A real Graphite for tests: carbon-cache and graphite-web from Debian's packages (graphite-carbon,
 * graphite-web), each in a temp dir of its own, on free loopback ports. Points written through the plaintext
 * protocol are readable at once through the render API (graphite-web asks carbon's cache for unflushed points).
 */
export interface Graphite {
  /** Base URL of graphite-web, e.g. http://127.0.0.1:40123 (render API at /render). */
  url: string;
  /** Carbon's plaintext line receiver. */
  carbonHost: string;
  /** Where carbon writes whisper files (graphite-web's WHISPER_DIR). */
  whisperDir: string;
  carbonPort: number;
  /** Carbon's pickle receiver (what carbon-relay sends its DESTINATIONS). */
  picklePort: number;
  /** Writes `path value [timestamp]` lines (timestamp defaults to now) and resolves once carbon has them. */
  writePoints(points: GraphitePoint[]): Promise<void>;
  /** The render API as JSON for one target over the last `minutes`. */
  render(target: string, minutes?: number): Promise<GraphiteSeries[]>;
  /**
   * Renders `target` until `done` accepts its series (at most `timeoutMs`), a 5xx meaning "not yet": carbon
   * creates a whisper file in several writes (header, then zeroed archives), and graphite-web answers 500 to a
   * render that reads one half-written, while its find already lists the file. Wait with this for points to be
   * readable, never for a file to exist.
   */
  waitForSeries(target: string, done: (series: GraphiteSeries[]) => boolean, options?: { minutes?: number; timeoutMs?: number }): Promise<GraphiteSeries[]>;
  /** Metric paths matching a find query such as `collectd.*`. */
  findMetrics(query: string): Promise<string[]>;
  stop(): Promise<void>;
}

export interface GraphitePoint {
  path: string;
  value: number;
  /** Unix seconds; default now. */
  time?: number;
}

export interface GraphiteSeries {
  target: string;
  datapoints: [number | null, number][];
}

/** Whether carbon and graphite-web are installed; in CI a missing one fails instead of skipping. */
export function graphiteAvailability(): { skip: boolean; reason: string } {
  return systemPart('graphite (graphite-carbon, graphite-web)', hasCommand('carbon-cache') && hasCommand('graphite-manage'));
}

export interface StartGraphiteOptions {
  /** Whisper retentions for every metric; default 10 s points for 6 h, then 60 s for a day. */
  retentions?: string;
  /** Rules before the default one, first match wins (carbon's order), e.g. a coarser step for some paths. */
  schemas?: { pattern: string; retentions: string }[];
}

export async function startGraphite(options: StartGraphiteOptions = {}): Promise<Graphite> {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-graphite-'));
  const [linePort, picklePort, cachePort, webPort] = (await freePorts(4)) as [number, number, number, number];
  const storage = join(dir, 'storage');
  await mkdir(join(storage, 'whisper'), { recursive: true });
  await mkdir(join(dir, 'log', 'webapp'), { recursive: true });

  await writeFile(
    join(dir, 'carbon.conf'),
    `[cache]
STORAGE_DIR = ${storage}/
LOCAL_DATA_DIR = ${storage}/whisper/
CONF_DIR = ${dir}/
LOG_DIR = ${dir}/log/
PID_DIR = ${dir}/
DATABASE = whisper
ENABLE_LOGROTATION = False
USER =
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = 10000
MAX_CREATES_PER_MINUTE = inf
MIN_TIMESTAMP_RESOLUTION = 1
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = ${linePort}
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = ${picklePort}
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = ${cachePort}
USE_FLOW_CONTROL = True
LOG_UPDATES = False
LOG_CREATES = False
LOG_LISTENER_CONNECTIONS = False
CACHE_WRITE_STRATEGY = sorted
WHISPER_AUTOFLUSH = False
WHISPER_FALLOCATE_CREATE = False
`,
  );
  await writeFile(
    join(dir, 'storage-schemas.conf'),
    [...(options.schemas ?? []).map((rule, i) => `[rule${i}]\npattern = ${rule.pattern}\nretentions = ${rule.retentions}\n\n`), `[everything]\npattern = .*\nretentions = ${options.retentions ?? '10s:6h,60s:1d'}\n`].join(''),
  );
  await writeFile(join(dir, 'storage-aggregation.conf'), '[default]\npattern = .*\nxFilesFactor = 0\naggregationMethod = average\n');
  await writeFile(
    join(dir, 'alertform_graphite_settings.py'),
    `SECRET_KEY = 'alertform-tests'
GRAPHITE_ROOT = '/usr/share/graphite-web'
STATIC_ROOT = '/usr/share/graphite-web/static'
CONF_DIR = ${py(dir)}
STORAGE_DIR = ${py(storage)}
WHISPER_DIR = ${py(join(storage, 'whisper'))}
STANDARD_DIRS = [${py(join(storage, 'whisper'))}]
LOG_DIR = ${py(join(dir, 'log', 'webapp'))}
INDEX_FILE = ${py(join(storage, 'index'))}
CARBONLINK_HOSTS = ['127.0.0.1:${cachePort}']
DEFAULT_XFILES_FACTOR = 0
LOG_ROTATION = False
TIME_ZONE = 'UTC'
DATABASES = {'default': {'NAME': ${py(join(dir, 'graphite.db'))}, 'ENGINE': 'django.db.backends.sqlite3',
                         'USER': '', 'PASSWORD': '', 'HOST': '', 'PORT': ''}}
`,
  );

  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const logs: string[] = [];
    const carbon = spawn('carbon-cache', [`--config=${join(dir, 'carbon.conf')}`, '--nodaemon', '--logfile=-', 'start'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(carbon);
    collect(carbon, logs);

    const webEnv = { ...process.env, GRAPHITE_SETTINGS_MODULE: 'alertform_graphite_settings', PYTHONPATH: dir };
    await migratedWebDatabase(join(dir, 'graphite.db'), dir, webEnv);
    const web = spawn('graphite-manage', ['runserver', `127.0.0.1:${webPort}`, '--noreload'], {
      cwd: dir,
      env: webEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(web);
    collect(web, logs);

    const url = `http://127.0.0.1:${webPort}`;
    await waitFor(async () => (await canConnect(linePort)) && (await canConnect(cachePort)), 'carbon-cache', logs, children);
    await waitFor(async () => (await fetch(`${url}/metrics/find?query=*`).catch(() => null))?.ok === true, 'graphite-web', logs, children);

    const graphite: Graphite = {
      url,
      carbonHost: '127.0.0.1',
      whisperDir: join(storage, 'whisper'),
      carbonPort: linePort,
      picklePort,
      writePoints: (points) => writePlaintext(linePort, points),
      async render(target, minutes = 60) {
        const response = await fetch(`${url}/render?target=${encodeURIComponent(target)}&from=-${minutes}min&until=now&format=json`);
        if (!response.ok) throw new Error(`graphite render ${response.status}: ${await response.text()}`);
        return (await response.json()) as GraphiteSeries[];
      },
      async waitForSeries(target, done, { minutes = 60, timeoutMs = 60_000 } = {}) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          // noCache: graphite-web keeps an answer a minute, and a wait must see what carbon has now.
          const response = await fetch(`${url}/render?target=${encodeURIComponent(target)}&from=-${minutes}min&until=now&format=json&noCache=true`);
          const body = await response.text();
          if (response.ok) {
            const series = JSON.parse(body) as GraphiteSeries[];
            if (done(series)) return series;
          } else if (response.status < 500) {
            throw new Error(`graphite render ${response.status}: ${body.slice(0, 500)}`);
          }
          if (Date.now() > deadline) throw new Error(`graphite did not show ${target} as wanted within ${timeoutMs} ms (last answer ${response.status})`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      async findMetrics(query) {
        const response = await fetch(`${url}/metrics/expand?query=${encodeURIComponent(query)}&leavesOnly=1`);
        if (!response.ok) throw new Error(`graphite find ${response.status}`);
        return ((await response.json()) as { results: string[] }).results;
      },
      stop,
    };
    return graphite;
  } catch (error) {
    await stop();
    throw error;
  }
}

const py = (text: string) => JSON.stringify(text);

/**
 * graphite-web's own database (users, sessions: nothing a test reads) at `target`, migrated. Django's migrate
 * costs about two seconds of CPU and is the same for every instance, so the run's first Graphite keeps its
 * migrated file in the run's temporary directory and the others copy it. The copy is made under another name
 * and renamed into place, so a Graphite starting meanwhile finds either nothing or the whole file.
 */
async function migratedWebDatabase(target: string, dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const kept = join(tmpdir(), 'alertform-graphite-web-migrated.db');
  if (existsSync(kept)) return copyFile(kept, target);
  await run('graphite-manage', ['migrate', '--noinput'], { cwd: dir, env });
  const partial = `${kept}.${process.pid}`;
  await copyFile(target, partial);
  await rename(partial, kept);
}

export function collect(child: ChildProcess, logs: string[]) {
  const keep = (chunk: Buffer) => {
    logs.push(chunk.toString());
    if (logs.length > 200) logs.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
}

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output.slice(-2000)}`))));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Polls a readiness check every 100 ms for at most 60 s; fails with the components' last log lines. */
export async function waitFor(ready: () => Promise<boolean>, what: string, logs: string[], children: ChildProcess[]) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await ready()) return;
    const dead = children.find((child) => child.exitCode !== null);
    if (dead) throw new Error(`${what} did not start (a process exited ${dead.exitCode}):\n${logs.join('').slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} was not ready within 60 s:\n${logs.join('').slice(-3000)}`);
}

export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Writes `path value timestamp` lines to a plaintext port in one connection; resolves when the peer has closed it. */
export function writePlaintext(port: number, points: GraphitePoint[]): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const body = points.map((p) => `${p.path} ${p.value} ${p.time ?? now}\n`).join('');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(body));
    // Carbon says nothing back, but its end must be read for 'close' to come: nock 15, loaded in the same process
    // (the Action's tests), holds an unread socket open.
    socket.resume();
    socket.once('error', reject);
    socket.once('close', (hadError) => (hadError ? reject(new Error('carbon closed the connection')) : resolve()));
  });
}

