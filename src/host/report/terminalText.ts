/**
 * Text from a trace written to a terminal or a log: a record's id, a tool's name, an error that quotes a line. Raw,
 * its control characters act — `\r` or a cursor move rewrites a line to show "✔" over an error, an escape sequence
 * hides text — and bidirectional controls reorder what is shown (Trojan Source). Like the webview
 * (webview/bidiControls.ts), the readable outputs show each as a visible escape (`\u202E`), and `--json` writes C1
 * and bidi characters as JSON escapes too (JSON.stringify escapes only C0), the same value for a JSON reader.
 */

/** C0 controls (with tab and newline: a line is one line), DEL, C1, bidi controls and the Unicode line separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
/** What the terminal style itself writes (terminalStyle.ts): bold, dim, four colours and their resets. */
// eslint-disable-next-line no-control-regex -- the escape character starts the styling
const OWN_STYLE = /\u001b\[(?:1|2|22|31|32|33|34|39)m/uy;
/** In JSON text these occur only inside strings, where an escape means the same character. */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

function escape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One line for the terminal: every unsafe character escaped, except the styling this program added. */
export function terminalLine(line: string): string {
  return line.replace(UNSAFE, (ch, at: number) => {
    if (ch === '\u001b') {
      OWN_STYLE.lastIndex = at;
      if (OWN_STYLE.test(line)) return ch;
    }
    return escape(ch);
  });
}

/** Text of one terminal line, every unsafe character escaped (for text that is not styled: messages, names). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** JSON.stringify with C1, bidi and line-separator characters escaped as well. */
export function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, escape);
}
