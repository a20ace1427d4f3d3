/**
 * graphite-web's render functions (graphite.functions.SeriesFunctions() of graphite-web 1.1.8, the Debian package
 * the tests run; test/security/metric-prefix-grammar.test.ts checks this list against it), sorted by what they
 * read. A metric-prefix-confined account may call only functions whose reads are all written in the target.
 */
export const GRAPHITE_FUNCTIONS: ReadonlySet<string> = new Set([
  'absolute', 'add', 'aggregate', 'aggregateLine', 'aggregateSeriesLists', 'aggregateWithWildcards', 'alias', 'aliasByMetric',
  'aliasByNode', 'aliasByTags', 'aliasQuery', 'aliasSub', 'alpha', 'applyByNode', 'areaBetween', 'asPercent',
  'averageAbove', 'averageBelow', 'averageOutsidePercentile', 'averageSeries', 'averageSeriesWithWildcards', 'avg', 'cactiStyle', 'changed',
  'color', 'consolidateBy', 'constantLine', 'countSeries', 'cumulative', 'currentAbove', 'currentBelow', 'dashed',
  'delay', 'derivative', 'diffSeries', 'diffSeriesLists', 'divideSeries', 'divideSeriesLists', 'drawAsInfinite', 'events',
  'exclude', 'exp', 'exponentialMovingAverage', 'fallbackSeries', 'filterSeries', 'grep', 'group', 'groupByNode',
  'groupByNodes', 'groupByTags', 'highest', 'highestAverage', 'highestCurrent', 'highestMax', 'hitcount', 'holtWintersAberration',
  'holtWintersConfidenceArea', 'holtWintersConfidenceBands', 'holtWintersForecast', 'identity', 'integral', 'integralByInterval', 'interpolate', 'invert',
  'isNonNull', 'keepLastValue', 'legendValue', 'limit', 'lineWidth', 'linearRegression', 'log', 'logit',
  'lowest', 'lowestAverage', 'lowestCurrent', 'map', 'mapSeries', 'maxSeries', 'maximumAbove', 'maximumBelow',
  'minMax', 'minSeries', 'minimumAbove', 'minimumBelow', 'mostDeviant', 'movingAverage', 'movingMax', 'movingMedian',
  'movingMin', 'movingSum', 'movingWindow', 'multiplySeries', 'multiplySeriesLists', 'multiplySeriesWithWildcards', 'nPercentile', 'nonNegativeDerivative',
  'offset', 'offsetToZero', 'pct', 'perSecond', 'percentileOfSeries', 'pow', 'powSeries', 'randomWalk',
  'randomWalkFunction', 'rangeOfSeries', 'reduce', 'reduceSeries', 'removeAbovePercentile', 'removeAboveValue', 'removeBelowPercentile', 'removeBelowValue',
  'removeBetweenPercentile', 'removeEmptySeries', 'round', 'scale', 'scaleToSeconds', 'secondYAxis', 'seriesByTag', 'setXFilesFactor',
  'sigmoid', 'sin', 'sinFunction', 'smartSummarize', 'sortBy', 'sortByMaxima', 'sortByMinima', 'sortByName',
  'sortByTotal', 'squareRoot', 'stacked', 'stddevSeries', 'stdev', 'substr', 'sum', 'sumSeries',
  'sumSeriesLists', 'sumSeriesWithWildcards', 'summarize', 'threshold', 'time', 'timeFunction', 'timeShift', 'timeSlice',
  'timeStack', 'transformNull', 'unique', 'useSeriesAbove', 'verticalLine', 'weightedAverage', 'xFilesFactor',
]);

/**
 * Functions that read what the target does not say: aliasQuery and useSeriesAbove evaluate queries made by
 * regex-replacing series names, applyByNode evaluates a query made from a template string, events reads the
 * events table every tenant shares. (seriesByTag reads by tag: it is judged by its `name=` expressions instead.)
 */
export const UNCONFINABLE_FUNCTIONS: ReadonlySet<string> = new Set(['aliasQuery', 'applyByNode', 'events', 'useSeriesAbove']);

/**
 * Functions that call another function named by one of their string arguments (groupByNode's callback,
 * reduceSeries' reduceFunction): a string naming an unconfinable function there would call it.
 */
export const CALLS_BY_NAME: ReadonlySet<string> = new Set(['groupByNode', 'groupByNodes', 'groupByTags', 'reduce', 'reduceSeries']);
