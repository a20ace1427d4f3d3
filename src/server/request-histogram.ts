import type { Metric, Registry } from 'prom-client';

/** The labels of one series of the request histogram. */
interface RequestLabels {
  method: string;
  route: string;
  status: string;
}

/** One series: its labels, its observations per bucket (not cumulative; past the last bound in none), sum, count. */
interface Series {
  labels: RequestLabels;
  perBucket: number[];
  sum: number;
  count: number;
}

/**
 * The HTTP request histogram, observed once per request. prom-client's Histogram builds a label object, validates it
 * and hashes it into a string on every observation (2% of a cached read's CPU); this one finds its series by one
 * string key and counts. It hands the registry exactly what prom-client's Histogram does (the same values, labels
 * and order: a series per label set in the order first seen, buckets cumulative, then +Inf, _sum, _count), so
 * /metrics is byte for byte what it was (test/unit/server/request-histogram.test.ts compares the two).
 */
export class RequestHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registers: Registry[],
  ) {
    for (const registry of registers) registry.registerMetric(this as unknown as Metric);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${seconds}`);
    const key = `${method}\n${route}\n${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, perBucket: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    // prom-client's bucket: the first bound the value is at most; none past the last (only +Inf counts it).
    const bucket = this.buckets.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) series.perBucket[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** What the registry formats, shaped as prom-client's Histogram.getForPromString gives it. */
  getForPromString() {
    const bucketName = `${this.name}_bucket`;
    const values: Array<{ labels: Record<string, string | number>; sharedLabels: RequestLabels; value: number; metricName: string; exemplar?: null }> = [];
    for (const { labels, perBucket, sum, count } of this.series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, index) => {
        cumulative += perBucket[index]!;
        values.push({ labels: { le: bound }, sharedLabels: labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: bucketName, exemplar: null });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** As prom-client's get(): each value's labels with the series' labels spread in. */
  get() {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ sharedLabels, labels, ...rest }) => ({ ...rest, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {
    this.series = new Map();
  }
}
