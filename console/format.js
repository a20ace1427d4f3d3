// @ts-check
/** Times and durations as the console shows them. */

/**
 * A unix time as local date and time.
 * @param {number | string | null | undefined} unix
 */
export function formatTime(unix) {
  if (unix === null || unix === undefined || unix === '') return '—';
  return new Date(Number(unix) * 1000).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A number of seconds in words: 45 s, 12 min, 3 h 5 min, 2 d 4 h.
 * @param {number} seconds
 */
export function formatDuration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h${s % 3600 >= 60 ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
  return `${Math.floor(s / 86_400)} d${s % 86_400 >= 3600 ? ` ${Math.floor((s % 86_400) / 3600)} h` : ''}`;
}

/**
 * How long ago a unix time was: "12 min ago".
 * @param {number | string | null | undefined} unix
 */
export function formatAgo(unix) {
  if (unix === null || unix === undefined || unix === '') return '—';
  return `${formatDuration(Date.now() / 1000 - Number(unix))} ago`;
}

/**
 * A value of a metric, short.
 * @param {number | null | undefined} value
 */
export function formatValue(value) {
  if (value === null || value === undefined) return '—';
  return Number.isInteger(value) ? String(value) : value.toPrecision(4).replace(/\.?0+$/, '');
}
