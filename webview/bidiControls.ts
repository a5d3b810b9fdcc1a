/**
 * Unicode bidirectional control characters (embeddings, overrides, isolates, marks) reorder the text around them
 * without being seen: an id or tool name holding U+202E can read as another one (Trojan Source). Like VS Code's
 * editor, the webview never applies them: each is shown as a visible escape (`\u202E`, which pasted into JSON
 * is the character again) with a tooltip naming it.
 */

const NAMES: Readonly<Record<number, string>> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
};

const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function hasBidiControls(text: string): boolean {
  return BIDI_CONTROL.test(text);
}

export function isBidiControl(code: number): boolean {
  return code in NAMES;
}

/** `\u202E`: how a control character is shown. */
export function bidiEscape(ch: string): string {
  return `\\u${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The tooltip of a shown control character. */
export function bidiTooltip(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} ${NAMES[code] ?? 'BIDI CONTROL'}: a bidirectional control character in the trace, shown instead of applied (it would reorder the text around it)`;
}

/** Text for places that take no markup (attributes, titles): every control character as its escape. */
export function escapeBidiControls(text: string): string {
  return hasBidiControls(text) ? text.replace(BIDI_CONTROLS, bidiEscape) : text;
}

/** The text cut into plain pieces and control characters, in order. */
export function bidiPieces(text: string): Array<{ text: string; control: boolean }> {
  const out: Array<{ text: string; control: boolean }> = [];
  let start = 0;
  for (const m of text.matchAll(BIDI_CONTROLS)) {
    const at = m.index;
    if (at > start) out.push({ text: text.slice(start, at), control: false });
    out.push({ text: m[0], control: true });
    start = at + m[0].length;
  }
  if (start < text.length) out.push({ text: text.slice(start), control: false });
  return out;
}
