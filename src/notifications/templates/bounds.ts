/**
 * What one template may cost, in one place (docs/security.md and docs/server.md quote these). A template is a
 * tenant's text run on the server's event loop, so its work is bounded, not just its length: 16 KB of template
 * nesting one list inside itself repeats the list once per level (5 series, 11 levels: 5^11 lines).
 */

/** The checker refuses sections nested deeper than this (a real message needs two or three). */
export const MAX_SECTION_DEPTH = 4;

/**
 * A render stops once its text is this long and ends with a cut marker. Every provider's own limit is lower
 * (limits.ts) except email, webhook and VictorOps, which take anything: 64 KB is a long email.
 */
export const MAX_RENDERED_CHARS = 65_536;

/**
 * A render stops after this many steps (one per tag, text piece and list item visited) and ends with a cut
 * marker: the work of a template stays around a millisecond, whatever the list's length (a 20-tag list section
 * over 1,000 series fits).
 */
export const MAX_RENDER_STEPS = 20_000;
