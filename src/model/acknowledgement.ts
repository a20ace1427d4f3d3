/** Who acknowledged an alerting episode, why, when and until when (unix seconds; until null: until it recovers). */
export interface Acknowledgement {
  by: string;
  note: string | null;
  at: number;
  until: number | null;
}

/** Whether an acknowledgement holds at `nowSeconds`: present and its `until` not passed. */
export function isAcknowledgedAt(ack: Acknowledgement | null, nowSeconds: number): boolean {
  return ack !== null && (ack.until === null || ack.until > nowSeconds);
}
