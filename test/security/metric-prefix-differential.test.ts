import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GRAPHITE_FUNCTIONS } from '../../src/model/graphite-target/functions.js';
import { expandTabs, parseGraphiteTarget } from '../../src/model/graphite-target/grammar.js';
import { readTarget } from '../../src/model/graphite-target/target.js';
import { checkMetricPrefixes } from '../../src/server/validation/metric-prefixes.js';
import { graphiteFunctions, graphiteParserAvailability, graphiteReadings, treeOf, type GraphiteReading } from '../helpers/graphite-parser.js';

// Issue 19, item 1: alertform's reading of a target against graphite-web's own parser (test/graphite-reads.py runs
// the Debian package's grammar). Targets are generated around the characters where the two used to disagree.

const PREFIX = 'team1.';
const parser = graphiteParserAvailability();

/** Characters and words where readings diverge: brackets, separators, quotes, escapes, number and keyword forms. */
const DANGEROUS = ['[', ']', ',', '(', ')', '"', "'", '{', '}', '*', '?', '+', '-', 'e', 'E', '0', '5', '.', '\\', '|', '=', ' ', '\t', '\n', '\r', '$', '/', ';', 'é', 'ı', '٣'];
const WORDS = [
  'team1.', 'team1.x', 'other.secret.cpu', 'null', 'none', 'None', 'true', 'FALSE', 'inf', 'ınf', '1e+5', '1e5', '+5', '-1.5', '.5',
  'sumSeries(', 'seriesByTag(', 'applyByNode(', 'template(', 'groupByNode(', 'alias(', "'name=team1.a'", '"name=other.b"', '"aliasQuery"', 'k=',
];
const soup = fc.array(fc.oneof(fc.constantFrom(...DANGEROUS), fc.constantFrom(...WORDS)), { minLength: 1, maxLength: 14 }).map((parts) => parts.join(''));

const FUNCTIONS = ['sumSeries', 'scale', 'alias', 'asPercent', 'seriesByTag', 'applyByNode', 'template', 'groupByNode', 'timeShift', 'fallbackSeries', 'nosuch'];
const LITERALS = ['5', '-1.5', '1e5', '1E-3', '1e+5', '+5', '.5', '5.', 'true', 'FALSE', 'none', 'null', 'inf', '-inf', '"s"', "'t'", '"a""b"', "'x\\'y'", '"name=team1.a"', "'name=other.b'", '"aliasQuery"', '"$1"'];
const { target: structured } = fc.letrec((tie) => ({
  path: fc
    .tuple(
      fc.constantFrom('team1.', 'team1.a.', 'other.', '', '{team1,other}.'),
      fc.array(fc.constantFrom('x', '*', '?', '[ab]', '[', ']', '{a,b}', 'null', '+5', '1e+5', '5', 'e', '\\,', '\\.', '/etc', '$1', ';t=v'), { minLength: 1, maxLength: 3 }),
    )
    .map(([start, parts]) => start + parts.join('')),
  arg: fc.oneof({ depthSize: 'small' }, fc.constantFrom(...LITERALS), tie('target'), fc.tuple(fc.constantFrom('k', 'total', 'x'), fc.constantFrom('=', ' = '), tie('target')).map((kw) => kw.join(''))),
  call: fc
    .tuple(fc.constantFrom(...FUNCTIONS), fc.array(tie('arg'), { maxLength: 4 }), fc.constantFrom(',', ', ', ' ,', '\t,', ',\n'))
    .map(([name, args, sep]) => `${name}(${(args as string[]).join(sep)})`),
  target: fc.oneof(
    { depthSize: 'small' },
    tie('path'),
    tie('call'),
    fc.tuple(tie('path'), fc.constantFrom('|', ' | '), tie('call')).map((parts) => parts.join('')),
  ),
}));
/** A well-formed-looking target with one dangerous character or word put somewhere in it. */
const mutated = fc
  .tuple(structured as fc.Arbitrary<string>, fc.nat(), fc.oneof(fc.constantFrom(...DANGEROUS), fc.constantFrom(...WORDS)))
  .map(([target, at, inserted]) => target.slice(0, at % (target.length + 1)) + inserted + target.slice(at % (target.length + 1)));

const targets = fc.oneof(structured as fc.Arbitrary<string>, mutated, soup, soup.map((s) => PREFIX + s), soup.map((s) => `sumSeries(${PREFIX}${s})`));

/** One target per production of graphite-web's grammar (and the pyparsing behaviour around it). */
const PRODUCTIONS = [
  // pathExpression: elements, wildcards, [ ] with no meaning across separators, {a,b}, escapes, every other printable
  'team1.web.*.c?u', 'team1.[ab].x', 'team1.x[,other.y]', 'team1.{a,b}.x', 'team1.{a,b', 'team1.a\\,b\\.c\\=d', 'a..b', 'a.b.', 'team1.$x;t=v/~!@#%^&*-_+=:<>?`',
  // numbers: int, float, scientific, and what only looks like one
  ...['5', '-5', '1.5', '-1.5', '1e5', '1E5', '1.5e-3', '-1e+5', '+5', '.5', '5.', '1.e5', '5a', '0x10', '5 ', '5\n', '٣'].map((n) => `f(a, ${n})`),
  // keywords: booleans, none, inf in any case; null is a path; a keyword touching a word is not one
  ...['true', 'FALSE', 'None', 'NONE', 'inf', 'INF', 'null', 'truex', 'true_', 'none1', 'infinity', 'true.x'].map((k) => `f(a, ${k})`),
  // strings: both quotes, doubled quotes, escapes, unclosed
  ...['"a"', "'b'", '"a""b"', "'a\\'b'", '"\\x41"', '"\\xZ"', '"open', "'a\nb'"].map((q) => `f(a, ${q})`),
  // calls: nesting, spaces and newlines between tokens, kwargs after args, kwargs alone, empty
  'sumSeries(scale(a.b, 2), c)', ' sumSeries ( a.b ,\n c ) ', 'f(a, k=1, j = b.c)', 'f(k=1)', 'f(a, k=1, b)', 'f()', 'f(a,)', 'f(a, x=)',
  // pipes, also inside arguments
  'a.b|f()|g(1)', 'a.b | f() |  g(h.i)', 'f(a|g(), b)', 'a.b|', 'a.b|c',
  // templates: with a call or a path, literal args or kwargs; anything else is a plain call
  'template(team1.$a, a="x")', 'template(f($1), 1, "y")', 'template( a.b)', 'template(f(a), x=1, 2)', 'template(a.b, c.d)',
  // seriesByTag is kept as written
  "seriesByTag('name=a', \"dc=eu\")", "x|seriesByTag('name=a')", "seriesByTag ('name=a')",
  // tabs are expanded before parsing; what follows a complete expression is ignored
  'f(a,\tb)', 'a.b c.d', 'sumSeries(a) )', '', '(',
];

/** Where parsing stopped, past the whitespace graphite-web's parser may or may not have stepped over. */
function stop(text: string, at: number): number {
  while (at < text.length && ' \n\t\r'.includes(text[at]!)) at += 1;
  return at;
}

/** Whether graphite-web's reading stays inside the prefix: every path, and an exact name= in every tag query. */
function insidePrefix(reading: Exclude<GraphiteReading, { error: string }>): boolean {
  const paths = reading.paths.every((path) => path.startsWith(PREFIX) && !path.includes('/'));
  const tags = reading.tags.every((expressions) => expressions.some((e) => /^name=[^;]*$/.test(e) && e.slice('name='.length).startsWith(PREFIX)));
  return paths && tags;
}

describe.skipIf(parser.skip)("alertform's reading of a target against graphite-web's parser", () => {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
  const sample = fc.sample(targets, { numRuns: Number(process.env.FUZZ_RUNS ?? 2000), seed });
  let readings: GraphiteReading[];

  it('parses every generated target as graphite-web does, and never lets a confined account read outside its prefix', async () => {
    readings = await graphiteReadings(sample);
    const differ: unknown[] = [];
    const escaped: unknown[] = [];
    let accepted = 0;
    sample.forEach((target, index) => {
      const theirs = readings[index]!;
      const ours = parseGraphiteTarget(target);
      const mine = ours === null ? 'error' : { stop: stop(ours.text, ours.consumed), tree: treeOf(ours.expression) };
      // Positions count in the text with tabs expanded, as both parsers see it.
      const reference = 'error' in theirs ? 'error' : { stop: stop(expandTabs(target), theirs.consumed), tree: theirs.tree };
      if (JSON.stringify(mine) !== JSON.stringify(reference)) differ.push({ target, ours: mine, graphiteWeb: reference });

      if (checkMetricPrefixes(target, [PREFIX]) !== null) return;
      accepted += 1;
      const whole = !('error' in theirs) && ours !== null && stop(ours.text, theirs.consumed) === ours.text.length;
      if (!whole || !insidePrefix(theirs)) {
        escaped.push({ target, graphiteWeb: theirs });
        return;
      }
      const reads = readTarget(target);
      if (JSON.stringify([reads.paths, reads.tagQueries]) !== JSON.stringify([theirs.paths, theirs.tags])) escaped.push({ target, ours: reads, graphiteWeb: theirs });
    });
    expect(escaped, `seed ${seed}: accepted for ${PREFIX} but graphite-web reads otherwise`).toEqual([]);
    expect(differ.slice(0, 5), `seed ${seed}: ${differ.length} targets parsed differently`).toEqual([]);
    // The property is not vacuous: many generated targets are accepted, and graphite-web refuses some outright.
    expect(accepted, `seed ${seed}`).toBeGreaterThan(100);
    expect(readings.filter((reading) => 'error' in reading).length).toBeGreaterThan(10);
  }, 60_000);

  it("knows exactly graphite-web's functions (a confined account may call no other)", async () => {
    expect([...GRAPHITE_FUNCTIONS].sort()).toEqual(await graphiteFunctions());
  });

  it('reads one example of each production of the grammar as graphite-web does', async () => {
    const theirs = await graphiteReadings(PRODUCTIONS);
    const ours = PRODUCTIONS.map((target) => {
      const parsed = parseGraphiteTarget(target);
      return parsed === null ? 'error' : { stop: stop(parsed.text, parsed.consumed), tree: treeOf(parsed.expression) };
    });
    expect(ours).toEqual(theirs.map((reading, i) => ('error' in reading ? 'error' : { stop: stop(expandTabs(PRODUCTIONS[i]!), reading.consumed), tree: reading.tree })));
  });

  it("agrees with graphite-web on the bypasses of issue 19 (a '[' across ',', null, +5, 1e+5), which are refused", async () => {
    const cases = ['sumSeries(team1.x[,other.secret.cpu,y])', 'sumSeries(team1.x,null,+5,1e+5)', 'sumSeries(team1.x[,seriesByTag("name=other.secret.cpu"),y])'];
    const theirs = await graphiteReadings(cases);
    expect(theirs.map((reading) => ('error' in reading ? reading : [reading.paths, reading.tags]))).toEqual([
      [['team1.x[', 'other.secret.cpu', 'y]'], []],
      [['team1.x', 'null', '+5', '1e+5'], []],
      [['team1.x[', 'y]'], [['name=other.secret.cpu']]],
    ]);
    expect(cases.map((target) => readTarget(target)).map((reads) => [reads.paths, reads.tagQueries])).toEqual(
      theirs.map((reading) => ('error' in reading ? reading : [reading.paths, reading.tags])),
    );
    for (const target of cases) expect(checkMetricPrefixes(target, [PREFIX])).not.toBeNull();
  });
});
