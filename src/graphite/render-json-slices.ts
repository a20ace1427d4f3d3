import { RenderAnswerError, parseRenderAnswer } from './render-json.js';
import type { RenderSeries } from './types.js';

/**
 * Bytes of an answer read between two turns of the event loop: about 25 ms of parsing here. An answer this size or
 * smaller is read in one step, as before.
 */
export const SLICE_BYTES = 1 << 20;

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const QUOTE = 0x22;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;

/**
 * Reads a large render answer a slice at a time, giving the event loop back (setImmediate) between slices: a week
 * of points of a wide wildcard is tens of MB, over a second of parsing in one step, and every other request of the
 * server (and its /healthz) would wait for it. The answer is cut between its series (a scan that keeps track of
 * strings and nesting) and each slice of whole series is read by parseRenderAnswer, so the series are exactly
 * those of one read. An answer that is not a list of objects, or a slice that does not read, is read whole instead,
 * so its error is the one parseRenderAnswer gives.
 */
export async function parseRenderAnswerInSlices(body: Uint8Array): Promise<RenderSeries[]> {
  if (body.length <= SLICE_BYTES) return parseRenderAnswer(body);
  let i = skipSpace(body, 0);
  if (body[i] !== OPEN_ARRAY) return parseRenderAnswer(body);
  const series: RenderSeries[] = [];
  // Nesting: 1 inside the list, between series.
  let depth = 1;
  let inString = false;
  let sliceStart = -1;
  let last: 'open' | 'series' | 'comma' = 'open';
  for (i += 1; i < body.length; i += 1) {
    const byte = body[i]!;
    if (inString) {
      if (byte === BACKSLASH) i += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (depth === 1) {
      // Between series: objects separated by commas (anything else, such as a bare value, is read whole).
      if (byte === OPEN_OBJECT && last !== 'series') {
        if (sliceStart < 0) sliceStart = i;
        depth += 1;
        last = 'series';
      } else if (byte === COMMA && last === 'series') last = 'comma';
      else if (byte === CLOSE_ARRAY && last !== 'comma') break;
      else if (!isSpace(byte)) return parseRenderAnswer(body);
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
    else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth -= 1;
      if (depth === 1 && i + 1 - sliceStart >= SLICE_BYTES) {
        const read = readSlice(body, sliceStart, i + 1);
        if (!read) return parseRenderAnswer(body);
        for (const one of read) series.push(one);
        sliceStart = -1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  // The list must end here, with nothing after it but spaces; anything else is read whole for its error.
  if (i >= body.length || skipSpace(body, i + 1) !== body.length) return parseRenderAnswer(body);
  if (sliceStart >= 0) {
    const read = readSlice(body, sliceStart, lastClose(body, i));
    if (!read) return parseRenderAnswer(body);
    for (const one of read) series.push(one);
  }
  return series;
}

/** The series of body[from, to) (whole series separated by commas) read as a list; null if they do not read. */
function readSlice(body: Uint8Array, from: number, to: number): RenderSeries[] | null {
  const slice = Buffer.allocUnsafe(to - from + 2);
  slice[0] = OPEN_ARRAY;
  slice.set(body.subarray(from, to), 1);
  slice[slice.length - 1] = CLOSE_ARRAY;
  try {
    return parseRenderAnswer(slice);
  } catch (error) {
    if (error instanceof RenderAnswerError) return null;
    throw error;
  }
}

/** Where the last series before the list's closing bracket (at `close`) ends, exclusive. */
function lastClose(body: Uint8Array, close: number): number {
  let end = close;
  while (end > 0 && isSpace(body[end - 1]!)) end -= 1;
  return end;
}

function skipSpace(body: Uint8Array, from: number): number {
  let i = from;
  while (i < body.length && isSpace(body[i]!)) i += 1;
  return i;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}
