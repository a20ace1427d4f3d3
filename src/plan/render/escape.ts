/**
 * Names and messages in renderings come from definitions and servers, so from anyone who can open a pull request
 * or own an account. In a terminal, an ESC starts a control sequence (move the cursor, rewrite lines already
 * shown, set the window title); in markdown, a line break ends a code span and starts a line of the attacker's
 * choosing (a heading, `</details>`, a fake "No changes"). Each format escapes them its own way, here.
 */

/** C0 and C1 control characters, DEL, the Unicode line and paragraph separators, and bidirectional overrides. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** The text with every control character written as an escape (`\n`, `\u001b`): one visible line, inert. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (ch) => NAMED[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Like escapeControls, but keeps line breaks (for multi-line text shown as such, e.g. a word diff). */
export function escapeControlsKeepLines(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}

/**
 * Inline code that survives any name: one line (controls escaped), backticks swapped so the span cannot end early,
 * and for tables the pipe escaped. Inside a code span, markdown and HTML (`</details>`) are shown as they are.
 */
export function markdownCode(text: string, options: { table?: boolean; backtick?: string } = {}): string {
  let inner = escapeControls(text).replace(/`/g, options.backtick ?? 'ˋ');
  if (options.table) inner = inner.replace(/\|/g, '\\|');
  return `\`${inner}\``;
}

/** Plain markdown text: one line, and no HTML or markdown of its own (`<`, `>`, `&`, and the markup characters escaped). */
export function markdownText(text: string): string {
  return escapeControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]#|~])/g, '\\$1');
}
