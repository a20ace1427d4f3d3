// autocannon ships no types and @types/autocannon is not a dependency: the part of its API the benchmarks use.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request; returns the request to send. */
    setupRequest?: (request: { body?: string }) => { body?: string };
  }
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
    connections?: number;
    duration?: number;
    amount?: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
