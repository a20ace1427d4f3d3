import { Worker } from 'node:worker_threads';
import { parseYamlValues, type SourceFile } from './yaml-source.js';

/**
 * js-yaml's parse of large definitions shared with a second thread. A plan reads the server's pages while its
 * definitions load, and everything else it does runs on the main thread: parsing 10,000 alerts' YAML there (about
 * half the load) takes time the pages and the checks need. Here a worker parses the files from the first on, one
 * message per file, while the main thread reads pages and checks each file as it arrives; when the main thread
 * would wait (the worker is still starting, or behind), it parses the last file nobody started itself. Each file is
 * claimed once, by either thread, through a shared array.
 *
 * Only the parse moves, with the same js-yaml module file and the same options as yaml-source.ts; a value comes back
 * by structured clone, which keeps what aliases share (the alias-bomb check still sees one object) and every number,
 * string and key order. A file that does not parse, or any failure of the worker itself (no module file to load,
 * as in a bundle), is parsed by the ordinary path on the main thread, so its problems are exactly the same.
 */

/** Below this much YAML a worker's start (tens of milliseconds of a core) costs more than the parse it saves. */
export const WORKER_MIN_BYTES = 512 * 1024;

/** One file's documents as js-yaml parsed them, or `undefined`: parse it the ordinary way. */
export type ParsedValues = unknown[] | undefined;

/** What the main thread does for file `index`: take its values now, or wait for the worker's. */
export type Take = { ready: true; values: ParsedValues } | { ready: false };

export interface SharedParse {
  /** File `index`, whose turn it is: its values if parsed (by either thread), or not ready (the worker has it). */
  take(index: number): Take;
  /** The worker's values of file `index` (which take() said is not ready), when they arrive. */
  wait(index: number): Promise<ParsedValues>;
  /** Parses here the last file that neither thread started; false when there is none. */
  helpOne(): boolean;
}

const FREE = 0;
const WORKER = 1;
const MAIN = 2;

/** The worker's code: plain JavaScript, so that it runs without a TypeScript loader (tsx, vitest) and from dist/. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const claims = new Int32Array(workerData.claims);
// Alive until the main thread ends it, having received every file: a worker that ends by itself may be seen to exit
// before its last messages are.
parentPort.on('message', () => {});
import(workerData.module).then(({ default: jsyaml }) => {
  workerData.files.forEach((file, index) => {
    if (Atomics.compareExchange(claims, index, ${FREE}, ${WORKER}) !== ${FREE}) return;
    let values;
    try {
      values = jsyaml.loadAll(file.text, undefined, { schema: jsyaml.CORE_SCHEMA, filename: file.path });
    } catch {
      values = undefined;
    }
    try {
      parentPort.postMessage({ index, values });
    } catch {
      parentPort.postMessage({ index, values: undefined });
    }
  });
  // Every file is claimed by now, by one thread or the other, and this one's were all sent before this message.
  parentPort.postMessage({ finished: true });
}, () => parentPort.postMessage({ failed: true }));
`;

/** The file URL of the js-yaml module the main thread imports, or undefined where there is none (a bundle). */
function jsYamlModule(): string | undefined {
  try {
    return import.meta.resolve('js-yaml');
  } catch {
    return undefined;
  }
}

/**
 * Starts sharing the parse of `files` with a worker, when they are large enough to be worth it; `undefined` when not
 * started (then every file is parsed the ordinary way).
 */
export function parseOnWorker(files: readonly SourceFile[], minBytes = WORKER_MIN_BYTES): SharedParse | undefined {
  let bytes = 0;
  for (const file of files) bytes += file.text.length;
  if (bytes < minBytes || files.length === 0) return undefined;
  const module = jsYamlModule();
  if (!module?.startsWith('file:')) return undefined;

  const claims = new Int32Array(new SharedArrayBuffer(files.length * Int32Array.BYTES_PER_ELEMENT));
  /** Values of files parsed (by either thread) and not yet taken. */
  const done = new Map<number, ParsedValues>();
  const waiting = new Map<number, (values: ParsedValues) => void>();
  let worker: Worker;
  const arrived = (index: number, values: ParsedValues) => {
    const resolve = waiting.get(index);
    if (resolve) {
      waiting.delete(index);
      resolve(values);
    } else {
      done.set(index, values);
    }
  };
  const received = new Set<number>();
  let gaveUp = false;
  const giveUp = () => {
    if (gaveUp) return;
    gaveUp = true;
    // What the worker claimed and did not send is parsed on the main thread; nothing more goes to the worker.
    for (let i = 0; i < files.length; i += 1) {
      const previous = Atomics.compareExchange(claims, i, FREE, MAIN);
      if (previous === WORKER && !received.has(i)) arrived(i, undefined);
    }
    void worker?.terminate();
  };
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module, claims: claims.buffer, files: files.map((file) => ({ path: file.path, text: file.text })) },
      // Not the parent's --import tsx or test runner's flags: the code above needs none.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
  } catch {
    return undefined;
  }
  // A load that stops waiting (an error elsewhere) must not keep the process alive.
  worker.unref();
  worker.on('message', (message: { index?: number; values?: unknown[]; failed?: boolean; finished?: boolean }) => {
    if (message.finished) return void worker.terminate();
    if (message.failed || message.index === undefined) return giveUp();
    received.add(message.index);
    arrived(message.index, message.values);
  });
  worker.on('error', giveUp);
  worker.on('exit', giveUp);

  return {
    take(index) {
      if (done.has(index)) {
        const values = done.get(index);
        done.delete(index);
        return { ready: true, values };
      }
      // Not started by anyone: this thread's, parsed the ordinary way.
      if (Atomics.compareExchange(claims, index, FREE, MAIN) === FREE) return { ready: true, values: undefined };
      if (Atomics.load(claims, index) === MAIN) return { ready: true, values: undefined };
      return { ready: false };
    },
    wait(index) {
      if (done.has(index)) {
        const values = done.get(index);
        done.delete(index);
        return Promise.resolve(values);
      }
      return new Promise((resolve) => waiting.set(index, resolve));
    },
    helpOne() {
      for (let i = files.length - 1; i >= 0; i -= 1) {
        if (Atomics.load(claims, i) !== FREE) continue;
        if (Atomics.compareExchange(claims, i, FREE, MAIN) !== FREE) return true;
        let values: ParsedValues;
        try {
          values = parseYamlValues(files[i]!);
        } catch {
          values = undefined;
        }
        done.set(i, values);
        return true;
      }
      return false;
    },
  };
}
