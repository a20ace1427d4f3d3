import type { EvaluationAlert, EvaluationPaging, EvaluationUpdate } from './evaluation-store.js';
import type { EvaluationLease } from './evaluation-store.js';
import type { AccountChanges } from './account-changes.js';
import { applySavedEvaluation, setClockFields, type ClockInputs } from './evaluation-alert.js';

/**
 * The evaluator's last listing, kept between cycles (as Grafana ngalert's scheduler keeps its rules and fetches
 * them again only when their versions changed): a steady cycle hands the kept records to its pages again instead of
 * reading the store, with `muted` and `acknowledged` decided again at the cycle's time (setClockFields). Used by
 * both backends' listings (sqlite/ and postgres/evaluation-rows.ts), only for paged listings (the evaluator's).
 *
 * The records are served only while all of these hold:
 * - the `evaluation` change topic (account-changes.ts) is at the version read before the listing: any write of
 *   alerts, their links or schedules by anyone but the evaluator's own saves moves it;
 * - the lease is the one listed under: the same partitions with the same tokens (a partition that moved away and
 *   back has a new token, and another replica may have saved its alerts meanwhile);
 * - every save since succeeded, and was applied here (applySaved); a save that ends an acknowledgement, a failed
 *   save, a failed or unfinished listing drop the records.
 *
 * Records are kept, not re-made: a steady cycle allocates only its pages' arrays. The kept records are the
 * cycle's (it must not change them) and are changed here only between cycles.
 */
export class EvaluationListingCache {
  private records: EvaluationAlert[] = [];
  private clocks: (ClockInputs | null)[] = [];
  /** The record's index by alert id, made at the first save that needs it. */
  private byId: Map<string, number> | null = null;
  private version: number | null = null;
  private leaseKey: string | null = null;
  /** The listing being read now: only the latest one begun may be kept (two at once never mix). */
  private filling: ListingFill | null = null;

  /**
   * A paged listing's start, the same on both backends: when the kept records are the store's now (the `evaluation`
   * topic's settled version, read-your-writes: on PostgreSQL after a barrier) under `lease`, hands them to
   * `paging.onPage` and answers null (nothing to read); otherwise answers the fill of the listing to read now.
   */
  async serveOrBegin(
    changes: Pick<AccountChanges, 'settledVersion'>,
    now: number,
    lease: EvaluationLease | undefined,
    paging: EvaluationPaging,
  ): Promise<ListingFill | null> {
    const version = await changes.settledVersion('evaluation');
    if (!this.serves(version, lease)) return this.begin(version, lease);
    await this.replay(now, paging);
    return null;
  }

  /** Whether the kept records are the store's at `version` under `lease`. */
  serves(version: number | null, lease: EvaluationLease | undefined): boolean {
    return version !== null && version === this.version && leaseKeyOf(lease) === this.leaseKey;
  }

  /** Forgets everything kept (the next listing reads the store). */
  drop(): void {
    this.records = [];
    this.clocks = [];
    this.byId = null;
    this.version = null;
    this.leaseKey = null;
    this.filling = null;
  }

  /**
   * Drops what is kept and starts keeping a listing read at `version` under `lease`; the listing hands each record
   * to the answer's `keep`, and calls `finish` once it has been read to its end (and its snapshot closed). A version
   * of null (changes cannot be told now) keeps nothing.
   */
  begin(version: number | null, lease: EvaluationLease | undefined): ListingFill {
    this.drop();
    const fill = new ListingFill(version === null ? null : () => {
      if (this.filling !== fill) return;
      this.filling = null;
      this.records = fill.records;
      this.clocks = fill.clocks;
      this.version = version;
      this.leaseKey = leaseKeyOf(lease);
    });
    this.filling = fill;
    return fill;
  }

  /**
   * Hands the kept records to `paging.onPage` in pages, in the listing's order, with `muted` and `acknowledged`
   * decided at `now` (epoch ms); yields between pages as a listing from the store does, so that a page's requests
   * leave while the next is handed over.
   */
  async replay(now: number, paging: EvaluationPaging): Promise<void> {
    const { records, clocks } = this;
    const size = Math.max(1, Math.floor(paging.size));
    for (let from = 0; from < records.length; from += size) {
      if (from > 0) await new Promise((resolve) => setImmediate(resolve));
      const to = Math.min(records.length, from + size);
      for (let i = from; i < to; i += 1) setClockFields(records[i]!, clocks[i]!, now);
      await paging.onPage(records.slice(from, to));
    }
  }

  /**
   * After a save committed: the kept records take the saved status, triggered metrics and state. An update that
   * ends an acknowledgement (a recovery of an acknowledged alert, an expiry) drops everything instead (the store
   * cleared the acknowledgement columns; a relisting reads that).
   */
  applySaved(updates: readonly EvaluationUpdate[]): void {
    if (this.version === null || updates.length === 0) return;
    const byId = (this.byId ??= new Map(this.records.map((record, index) => [record.id, index])));
    for (const update of updates) {
      const index = byId.get(update.alertId);
      if (index === undefined) continue;
      const record = this.records[index]!;
      if (update.endAcknowledgementAt !== undefined || (update.status === 'healthy' && record.acknowledgedAt !== null)) {
        this.drop();
        return;
      }
      applySavedEvaluation(record, update);
    }
  }
}

/** One listing's records as it reads them, kept once it is read to its end (EvaluationListingCache.begin). */
export class ListingFill {
  readonly records: EvaluationAlert[] = [];
  readonly clocks: (ClockInputs | null)[] = [];

  constructor(private readonly onFinish: (() => void) | null) {}

  /** One record of the listing, in the listing's order, with its clock inputs. */
  keep(record: EvaluationAlert, clock: ClockInputs | null): void {
    if (this.onFinish === null) return;
    this.records.push(record);
    this.clocks.push(clock);
  }

  /** The listing was read to its end: its records are kept (unless a later listing began meanwhile). */
  finish(): void {
    this.onFinish?.();
  }
}

/** The lease as a key: the partitions held with their tokens, or everything (no lease, or a single-node store). */
function leaseKeyOf(lease: EvaluationLease | undefined): string {
  if (!lease?.tokens) return 'all';
  const held = [...lease.tokens].sort((a, b) => a[0] - b[0]);
  return `${lease.partitionCount}:${held.map(([partition, token]) => `${partition}.${token}`).join(',')}`;
}
