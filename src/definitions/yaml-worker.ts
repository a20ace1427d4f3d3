import { Worker } from 'node:worker_threads';
import type { SourceFile } from './yaml-source.js';

/**
 * js-yaml's parse of large definitions on a second thread. A plan reads the server's pages while its definitions
 * load, and everything else it does runs on the main thread: parsing 10,000 alerts' YAML there (about half the
 * load) takes a core the pages need. Here a worker parses the files, one message per file, while the main thread
 * reads the pages and checks each file as it arrives.
 *
 * Only the parse moves, with the same js-yaml module file and the same options as yaml-source.ts; a value comes back
 * by structured clone, which keeps what aliases share (the alias-bomb check still sees one object) and every number,
 * string and key order. A file the worker cannot parse, or any failure of the worker itself (no module file to load,
 * as in a bundle), is parsed on the main thread as before, so its problems are exactly those of the ordinary path.
 */

/** Below this much YAML a worker's start (tens of milliseconds of a core) costs more than the parse it saves. */
export const WORKER_MIN_BYTES = 512 * 1024;

/** One file's documents as js-yaml parsed them, or `undefined`: parse it on this thread. */
export type ParsedValues = unknown[] | undefined;

/** The worker's code: plain JavaScript, so that it runs without a TypeScript loader (tsx, vitest) and from dist/. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.module).then(({ default: jsyaml }) => {
  workerData.files.forEach((file, index) => {
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
 * Starts parsing `files` on a worker, when they are large enough to be worth it: one promise per file, each settling
 * with that file's values (or `undefined`, to parse on this thread). Never rejects. `undefined` when not started.
 */
export function parseOnWorker(files: readonly SourceFile[], minBytes = WORKER_MIN_BYTES): Promise<ParsedValues>[] | undefined {
  let bytes = 0;
  for (const file of files) bytes += file.text.length;
  if (bytes < minBytes || files.length === 0) return undefined;
  const module = jsYamlModule();
  if (!module?.startsWith('file:')) return undefined;

  const settle: ((values: ParsedValues) => void)[] = [];
  const results = files.map(() => new Promise<ParsedValues>((resolve) => settle.push(resolve)));
  let left = files.length;
  const finish = (index: number, values: ParsedValues) => {
    const resolve = settle[index];
    if (!resolve) return;
    settle[index] = undefined as never;
    resolve(values);
    left -= 1;
    if (left === 0) void worker.terminate();
  };
  const giveUp = () => {
    for (let i = 0; i < settle.length; i += 1) if (settle[i]) finish(i, undefined);
  };
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module, files: files.map((file) => ({ path: file.path, text: file.text })) },
      // Not the parent's --import tsx or test runner's flags: the code above needs none.
      execArgv: [],
      stdout: false,
      stderr: false,
    });
  } catch {
    return undefined;
  }
  // A load that stops waiting (definitions that fail elsewhere) must not keep the process alive.
  worker.unref();
  worker.on('message', (message: { index?: number; values?: unknown[]; failed?: boolean }) => {
    if (message.failed || message.index === undefined) giveUp();
    else finish(message.index, message.values);
  });
  worker.on('error', giveUp);
  worker.on('exit', giveUp);
  return results;
}
