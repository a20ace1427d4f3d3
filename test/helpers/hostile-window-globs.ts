/**
 * A maintenance window's worst name globs and the alert names that make them work hardest, at the documented limits:
 * 20 patterns of up to 200 characters (`*`, a run of a's, then b) and 255-character names that contain every
 * pattern's literal text without ending in b, so no pattern matches and every literal pre-filter lets them through.
 */
export const HOSTILE_PATTERNS = Array.from({ length: 20 }, (_, i) => `*${'a'.repeat(179 + i)}b`);

/** The i-th hostile alert name (255 characters, unique). */
export const hostileAlertName = (i: number) => `${'a'.repeat(200)}b${`x${i}`.padEnd(54, 'x')}`;
