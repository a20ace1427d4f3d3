import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './free-port.js';
import { canConnect, collect, stopChild, waitFor } from './graphite.js';
import { hasCommand, systemPart } from './system.js';

/**
 * Graphite's relays from Debian's packages, each in a temp dir of its own on a free loopback port, to tee one
 * stream to several destinations as operators do: carbon-relay (graphite-carbon, Python; sends its DESTINATIONS
 * carbon's pickle protocol) and carbon-c-relay (C; forwards plaintext lines to its clusters).
 */
export interface Relay {
  /** The relay's plaintext line port: write `path value timestamp` lines here. */
  port: number;
  /** The relay's last log lines (for failure messages). */
  logs(): string;
  stop(): Promise<void>;
}

export function carbonRelayAvailability(): { skip: boolean; reason: string } {
  return systemPart('carbon-relay (graphite-carbon)', hasCommand('carbon-relay'));
}

export function carbonCRelayAvailability(): { skip: boolean; reason: string } {
  return systemPart('carbon-c-relay', hasCommand('carbon-c-relay'));
}

/**
 * carbon-relay with RELAY_METHOD = rules and one default rule sending every metric to each of `destinations`
 * (`HOST:PORT` of pickle receivers): the documented way to copy a stream to two places.
 */
export async function startCarbonRelay(destinations: string[]): Promise<Relay> {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-carbon-relay-'));
  const [linePort, picklePort] = (await freePorts(2)) as [number, number];
  await mkdir(join(dir, 'log'), { recursive: true });
  const named = destinations.map((destination, k) => `${destination}:${String.fromCharCode(97 + k)}`).join(', ');
  await writeFile(
    join(dir, 'carbon.conf'),
    `[cache]
STORAGE_DIR = ${dir}/
LOCAL_DATA_DIR = ${dir}/whisper/
CONF_DIR = ${dir}/
LOG_DIR = ${dir}/log/
PID_DIR = ${dir}/
USER =
ENABLE_LOGROTATION = False

[relay]
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = ${linePort}
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = ${picklePort}
RELAY_METHOD = rules
DESTINATIONS = ${named}
MAX_QUEUE_SIZE = 100000
MAX_DATAPOINTS_PER_MESSAGE = 500
QUEUE_LOW_WATERMARK_PCT = 0.8
USE_FLOW_CONTROL = True
LOG_LISTENER_CONNECTIONS = False
`,
  );
  // carbon reads these at start even as a relay.
  await writeFile(join(dir, 'storage-schemas.conf'), '[everything]\npattern = .*\nretentions = 10s:6h\n');
  await writeFile(join(dir, 'relay-rules.conf'), `[default]\ndefault = true\ndestinations = ${named}\n`);
  const child = spawn('carbon-relay', [`--config=${join(dir, 'carbon.conf')}`, '--nodaemon', '--logfile=-', 'start'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return started(child, dir, linePort, 'carbon-relay');
}

/**
 * carbon-c-relay forwarding every line to each of `destinations` (`HOST:PORT` of plaintext receivers):
 * `cluster NAME forward HOST:PORT` per destination and `match * send to NAME1 NAME2`. Submission mode (-s):
 * the relay adds no statistics of its own to the stream.
 */
export async function startCarbonCRelay(destinations: string[]): Promise<Relay> {
  const dir = await mkdtemp(join(tmpdir(), 'alertform-carbon-c-relay-'));
  const [port] = (await freePorts(1)) as [number];
  const names = destinations.map((_, k) => `destination_${k}`);
  const config = [
    `listen type linemode 127.0.0.1:${port} proto tcp;`,
    ...destinations.map((destination, k) => `cluster ${names[k]} forward ${destination} proto tcp;`),
    `match * send to ${names.join(' ')};`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'relay.conf'), config);
  const child = spawn('carbon-c-relay', ['-f', join(dir, 'relay.conf'), '-s', '-w', '1'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return started(child, dir, port, 'carbon-c-relay');
}

async function started(child: ChildProcess, dir: string, port: number, what: string): Promise<Relay> {
  const logs: string[] = [];
  collect(child, logs);
  const stop = async () => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(() => canConnect(port), what, logs, [child]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, logs: () => logs.join('').slice(-3000), stop };
}
