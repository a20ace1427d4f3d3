import { deepFreeze } from '../deep-freeze.js';

/**
 * JSON columns of the evaluator's listing parsed once per distinct text, not once per alert per cycle: most alerts
 * share their criteria, notification type, escalation and triggered-metrics texts (`[]`), and the listing parses
 * six of them for every alert of every cycle. Keyed by the text, not by the alert, and bounded (a full cache starts
 * over): memory stays flat whatever the number of alerts, and a text that is unique to its alert costs one parse, as
 * before. One cache per column, so that columns whose texts are unique per alert (additional criteria name their
 * metrics) do not push out the shared ones.
 *
 * A value is shared by every alert with that text, across cycles, so it is frozen (deeply): the evaluator never
 * changes them, and a change in place would throw instead of leaking into other alerts.
 */
const MAX_TEXTS = 4_096;

export class ParsedJsonCache<T> {
  readonly #values = new Map<string, T>();

  parse(text: string): T {
    let value = this.#values.get(text);
    if (value === undefined) {
      value = deepFreeze(JSON.parse(text) as T);
      if (this.#values.size >= MAX_TEXTS) this.#values.clear();
      this.#values.set(text, value);
    }
    return value;
  }
}
