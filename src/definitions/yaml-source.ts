import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { LineCounter, parseAllDocuments, isMap, isNode, isScalar, visit, type Document, type Pair, type Scalar, type YAMLMap } from 'yaml';
import { ALIAS_ALLOWANCE, isAliasBomb, mayHoldAlias } from './alias-expansion.js';
import type { Problem, SourceLocation } from './problems.js';

/** A definitions file's text and the name it is reported under. */
export interface SourceFile {
  path: string;
  text: string;
}

/** Finds where a dot path of one YAML document was written. */
export interface DocumentLocator {
  /** The node at the path, or its nearest existing parent (for a missing field). */
  locate(path: string): SourceLocation;
  /** The key of the path's last segment (where a typo'd field name is), else as `locate`. */
  locateKey(path: string): SourceLocation;
  /**
   * Character `offset` of the string at the path (a template's error), where the source maps one to one (a plain
   * or quoted one-line scalar without escapes, a literal block `|`); else as `locate`.
   */
  locateIn(path: string, offset: number): SourceLocation;
}

export interface ParsedDocument {
  value: unknown;
  locator: DocumentLocator;
}

/**
 * Parses one file's YAML documents, skipping empty ones. Positions cost: yaml's position-keeping parser reads
 * about 1 MB/s here, js-yaml ten times that, and a large repo is mostly valid (measured on 1,000 alerts, 0.28 MB:
 * js-yaml 30 ms, yaml's parse() 240 ms, parseAllDocuments 370 ms; the 10,000-alert plan of bench/plan.ts would
 * spend seconds in yaml alone, so js-yaml stays, for valid files only). So valid YAML takes js-yaml, and a
 * position is computed only when something asks for one (a problem, a rendered change), by parsing that one file
 * again with yaml. YAML that js-yaml refuses goes to yaml at once, whose syntax errors carry their positions.
 */
export function parseYamlFile(file: SourceFile, problems: Problem[]): ParsedDocument[] {
  let values: unknown[];
  try {
    // CORE_SCHEMA is YAML 1.2's, as yaml's default: no timestamps (an `until:` stays a string), no merge keys.
    values = loadAll(file.text, { schema: CORE_SCHEMA, filename: file.path });
  } catch {
    const documents: ParsedDocument[] = [];
    for (const { doc, at } of parseWithPositions(file, problems)) {
      // No alias-count heuristic here (it refuses a file reusing one anchor 101 times): the size check below is exact.
      const value = doc.toJS({ maxAliasCount: -1 });
      if (isAliasBomb(value)) {
        problems.push(aliasBombProblem(file, doc, at));
        continue;
      }
      documents.push({ value, locator: documentLocator(doc, at, file) });
    }
    return documents;
  }
  // An alias needs an anchor and a `*` where a node begins, or js-yaml refuses it: without both, nothing to expand.
  if (mayHoldAlias(file.text) && values.some(isAliasBomb)) {
    const [first] = parseWithPositions(file, []);
    problems.push(first ? aliasBombProblem(file, first.doc, first.at) : { location: start(file.path), path: '', message: ALIAS_BOMB });
    return [];
  }
  const positions = new LazyPositions(file);
  const documents: ParsedDocument[] = [];
  for (const value of values) if (value !== null && value !== undefined) documents.push({ value, locator: new LazyLocator(positions, documents.length) });
  return documents;
}

/** yaml's documents with positions; syntax errors become problems and their documents are dropped. */
function parseWithPositions(file: SourceFile, problems: Problem[]): { doc: Document; at: (offset: number) => SourceLocation }[] {
  const lineCounter = new LineCounter();
  const at = (offset: number): SourceLocation => {
    const pos = lineCounter.linePos(offset);
    return { file: file.path, line: pos.line, column: pos.col };
  };
  const parsed: { doc: Document; at: typeof at }[] = [];
  for (const doc of parseAllDocuments(file.text, { lineCounter, prettyErrors: false })) {
    if (doc.errors.length > 0) {
      for (const error of doc.errors) problems.push({ location: at(error.pos[0]), path: '', message: error.message.split('\n')[0]! });
      continue;
    }
    if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) continue;
    parsed.push({ doc, at });
  }
  return parsed;
}

const start = (file: string): SourceLocation => ({ file, line: 1, column: 1 });

const ALIAS_BOMB = `aliases expand this document far beyond its own size (more than ${ALIAS_ALLOWANCE} extra nodes): refused, as a YAML alias bomb would be`;

/** The problem of a document whose aliases explode, located at its first alias. */
export function aliasBombProblem(file: SourceFile, doc: Document, at: (offset: number) => SourceLocation): Problem {
  let location = start(file.path);
  visit(doc, {
    Alias(_key, node) {
      if (node.range) location = at(node.range[0]);
      return visit.BREAK;
    },
  });
  return { location, path: '', message: ALIAS_BOMB };
}

/** A file's positions, found on first use by parsing it again with yaml (a valid, unrendered file never is). */
class LazyPositions {
  #parsed: ReturnType<typeof parseWithPositions> | undefined;
  readonly #locators: DocumentLocator[] = [];

  constructor(readonly file: SourceFile) {}

  locatorOf(index: number): DocumentLocator {
    const found = this.#locators[index];
    if (found) return found;
    const entry = (this.#parsed ??= parseWithPositions(this.file, []))[index];
    const start = startOf(this.file.path);
    const locator = entry ? documentLocator(entry.doc, entry.at, this.file) : { locate: start, locateKey: start, locateIn: start };
    this.#locators[index] = locator;
    return locator;
  }
}

const startOf = (file: string) => (): SourceLocation => start(file);

/** How a lazy location is found: by the node, by its key, or at an offset inside a string. */
const enum Locate {
  Node,
  Key,
  Inside,
}

/**
 * The locator of one document parsed by js-yaml: its locations are lazy, and made of one object each with two
 * getters (a 10,000-alert repository asks for one per item, and keeps them all).
 */
class LazyLocator implements DocumentLocator {
  constructor(
    private readonly positions: LazyPositions,
    private readonly index: number,
  ) {}

  locate(path: string): SourceLocation {
    return lazyLocation(this, path, Locate.Node, 0);
  }

  locateKey(path: string): SourceLocation {
    return lazyLocation(this, path, Locate.Key, 0);
  }

  locateIn(path: string, offset: number): SourceLocation {
    return lazyLocation(this, path, Locate.Inside, offset);
  }

  get file(): string {
    return this.positions.file.path;
  }

  resolve(path: string, how: Locate, offset: number): SourceLocation {
    const locator = this.positions.locatorOf(this.index);
    return how === Locate.Node ? locator.locate(path) : how === Locate.Key ? locator.locateKey(path) : locator.locateIn(path, offset);
  }
}

/** A location whose line and column are computed on first read (the file is known at once). */
function lazyLocation(locator: LazyLocator, path: string, how: Locate, offset: number): SourceLocation {
  let resolved: SourceLocation | undefined;
  return {
    file: locator.file,
    get line() {
      return (resolved ??= locator.resolve(path, how, offset)).line;
    },
    get column() {
      return (resolved ??= locator.resolve(path, how, offset)).column;
    },
  };
}

function documentLocator(doc: Document, at: (offset: number) => SourceLocation, file: SourceFile): DocumentLocator {
  const locate = (path: string) => locateInDocument(doc, path, at, file.path);
  return {
    locate,
    locateKey: (path) => locateKey(doc, path, at) ?? locate(path),
    locateIn: (path, offset) => {
      const node = doc.getIn(pathParts(path), true);
      const inside = isScalar(node) ? sourceOffsetIn(node, file.text, offset) : null;
      return inside === null ? locate(path) : at(inside);
    },
  };
}

/**
 * The file offset of character `offset` of a string scalar's value, when its source maps one to one: a one-line
 * plain or quoted scalar whose source is its value (no escapes), or a literal block (`|`), whose value's line k is
 * the header's line + 1 + k, after the block's indentation. Null otherwise (folded, escaped, multi-line flow).
 */
function sourceOffsetIn(node: Scalar, text: string, offset: number): number | null {
  if (!node.range || typeof node.value !== 'string') return null;
  const [from, to] = node.range;
  const source = text.slice(from, to);
  const value = node.value;
  if (node.type === 'PLAIN' && source === value) return from + offset;
  if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && source.slice(1, -1) === value && !value.includes('\n')) return from + 1 + offset;
  if (node.type !== 'BLOCK_LITERAL') return null;
  const lines = source.split('\n');
  const indent = Math.min(...lines.slice(1).filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  if (!Number.isFinite(indent)) return null;
  const before = value.slice(0, offset).split('\n');
  const row = before.length - 1;
  const column = before[before.length - 1]!.length;
  if (row + 1 >= lines.length) return null;
  let at = from + lines[0]!.length + 1;
  for (let k = 1; k <= row; k += 1) at += lines[k]!.length + 1;
  return at + indent + column;
}

const pathParts = (path: string): (string | number)[] =>
  path ? path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];

/** The position of the node at a dot path, or of its nearest existing parent (for a missing required field). */
function locateInDocument(doc: Document, path: string, at: (offset: number) => SourceLocation, file: string): SourceLocation {
  const parts = pathParts(path);
  for (let n = parts.length; n >= 0; n -= 1) {
    const node = n === 0 ? doc.contents : doc.getIn(parts.slice(0, n), true);
    if (isNode(node) && node.range) return at(node.range[0]);
  }
  return start(file);
}

const keyIndexes = new WeakMap<YAMLMap, Map<unknown, Pair>>();

/** A mapping's pairs by key, built once: a file with 100,000 unknown keys must not scan them for each problem. */
function keyIndexOf(map: YAMLMap): Map<unknown, Pair> {
  let index = keyIndexes.get(map);
  if (!index) {
    index = new Map();
    for (const item of map.items) if (isScalar(item.key) && !index.has(item.key.value)) index.set(item.key.value, item as Pair);
    keyIndexes.set(map, index);
  }
  return index;
}

/** The position of the key of the last segment of a dot path, when its parent is a mapping. */
function locateKey(doc: Document, path: string, at: (offset: number) => SourceLocation): SourceLocation | undefined {
  const parts = pathParts(path);
  const last = parts.pop();
  const parent = parts.length === 0 ? doc.contents : doc.getIn(parts, true);
  if (!isMap(parent)) return undefined;
  const pair = keyIndexOf(parent).get(last);
  return pair && isScalar(pair.key) && pair.key.range ? at(pair.key.range[0]) : undefined;
}
