import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ArgNode, CallNode, ExpressionNode, KwargNode, PathNode, TemplateNode } from '../../src/model/graphite-target/grammar.js';
import { hasFile, systemPart } from './system.js';

/**
 * graphite-web's own target parser, run by test/graphite-reads.py with the Debian package graphite-web and the
 * Debian python3 it is built for (its pyparsing, not one a pyenv may put first on PATH).
 */
const PYTHON = '/usr/bin/python3';
const GRAMMAR = '/usr/lib/python3/dist-packages/graphite/render/grammar_unsafe.py';
const SCRIPT = fileURLToPath(new URL('../graphite-reads.py', import.meta.url));

/** Whether graphite-web's parser can run here; in CI a missing one fails instead of skipping. */
export function graphiteParserAvailability(): { skip: boolean; reason: string } {
  return systemPart('graphite-web (its grammar under /usr/lib/python3/dist-packages/graphite)', hasFile(PYTHON) && hasFile(GRAMMAR));
}

/** What graphite-web makes of one target (see test/graphite-reads.py). */
export type GraphiteReading = { error: string } | { consumed: number; tree: unknown; paths: string[]; tags: string[][] };

/** graphite-web's reading of each target, in one python process. */
export async function graphiteReadings(targets: readonly string[]): Promise<GraphiteReading[]> {
  const child = spawn(PYTHON, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  child.stdin.end(targets.map((target) => JSON.stringify(target)).join('\n') + '\n');
  const code = await exited;
  if (code !== 0) throw new Error(`graphite-reads.py exited ${code}: ${err}`);
  const lines = out.trimEnd().split('\n');
  if (lines.length !== targets.length) throw new Error(`graphite-reads.py answered ${lines.length} lines for ${targets.length} targets: ${err}`);
  return lines.map((line) => JSON.parse(line) as GraphiteReading);
}

/** The names of graphite-web's render functions. */
export async function graphiteFunctions(): Promise<string[]> {
  const child = spawn(PYTHON, [SCRIPT, '--functions'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`graphite-reads.py --functions exited ${code}: ${err}`);
  return JSON.parse(out) as string[];
}

/** alertform's parse in the shape test/graphite-reads.py prints graphite-web's (its `tree`). */
export function treeOf(expression: ExpressionNode): unknown {
  return { head: headOf(expression.head), pipes: expression.pipes.map(callOf) };
}

function headOf(head: CallNode | PathNode | TemplateNode): unknown {
  if (head.kind === 'path') return { path: head.path };
  if (head.kind === 'call') return callOf(head);
  return {
    template: head.inner.kind === 'path' ? { path: head.inner.path } : callOf(head.inner),
    args: head.args.map(argOf),
    kwargs: head.kwargs.map(kwargOf),
  };
}

function callOf(call: CallNode): unknown {
  return { call: call.name, raw: call.raw, args: call.args.map(argOf), kwargs: call.kwargs.map(kwargOf) };
}

function kwargOf(kwarg: KwargNode): unknown {
  return [kwarg.name, argOf(kwarg.value)];
}

function argOf(arg: ArgNode): unknown {
  switch (arg.kind) {
    case 'expression':
      return treeOf(arg);
    case 'number':
      return { number: arg.text };
    case 'string':
      return { string: arg.text };
    case 'boolean':
      return { boolean: arg.value };
    case 'none':
      return { none: true };
    case 'infinity':
      return { infinity: true };
  }
}
