/** One datapoint as carbon receives it: `path value timestamp`. */
export interface CarbonPoint {
  path: string;
  /** Finite (NaN and infinities are refused on the wire). */
  value: number;
  /** Unix seconds, whole (carbon and whisper drop the fraction too). */
  timestamp: number;
}

/** Why a line, or an item of a pickle frame, was refused: the label of `alertform_carbon_lines_invalid_total`. */
export type InvalidReason =
  | 'too_long'
  | 'fields'
  | 'path'
  | 'value'
  | 'timestamp'
  | 'pickle_opcode'
  | 'pickle_shape'
  | 'pickle_frame';

/** Every reason, in the order /metrics lists them. */
export const INVALID_REASONS: readonly InvalidReason[] = [
  'too_long',
  'fields',
  'path',
  'value',
  'timestamp',
  'pickle_opcode',
  'pickle_shape',
  'pickle_frame',
];

/** Told about each refused line or item: its reason and a short, printable sample of it (for a rate-limited log). */
export type InvalidListener = (reason: InvalidReason, sample: string) => void;

/** Characters a metric path may not hold: whitespace, control characters, and the replacement for broken UTF-8. */
export const BAD_PATH_CHARACTER = /[\u0000-\u0020\u007f\ufffd]/;

/** Timestamps carbon would store: after 1970, before 2106 (whisper keeps them as unsigned 32-bit). */
export const MAX_TIMESTAMP = 4_294_967_295;

/**
 * A sample of refused input for a log line: at most 80 characters, control characters and non-ASCII shown as
 * `\xNN` / `\u{...}`, so a hostile line can neither forge log lines nor flood them.
 */
export function sampleOf(text: string): string {
  const cut = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return cut.replace(/[^\x20-\x7e…]/gu, (ch) => {
    const code = ch.codePointAt(0)!;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * A timestamp as carbon takes it (a number, `-1` meaning now), whole seconds, or null when carbon could not store it.
 * `now` is unix seconds.
 */
export function acceptTimestamp(timestamp: number, now: number): number | null {
  if (timestamp === -1) return Math.floor(now);
  if (!(timestamp > 0 && timestamp <= MAX_TIMESTAMP)) return null;
  return Math.floor(timestamp);
}
