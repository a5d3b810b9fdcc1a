/**
 * What a screen reader hears when the cursor moves: one polite live region saying the token (position, a short
 * visible form of its text), its role and the finding there. Announced once the cursor rests (holding an arrow
 * key or Play does not queue one announcement per token), and never the record's full text.
 */
import { h } from './dom.ts';
import type { AnchoredDiagnostic } from './navigation.ts';
import type { TokenView } from '../src/shared/protocol.ts';

/** How long the cursor rests before it is announced. */
const SETTLE_MS = 300;
const TEXT_CHARS = 40;
const MESSAGE_CHARS = 160;

/** A short speakable form of a token's text: whitespace named, long text cut. */
export function speakableToken(text: string): string {
  if (text === '') return 'empty';
  if (/^\s+$/.test(text)) {
    const names: Record<string, string> = { ' ': 'space', '\n': 'newline', '\t': 'tab', '\r': 'carriage return' };
    const parts = [...text].map((c) => names[c] ?? 'whitespace');
    return parts.length > 3 ? `${parts.length} whitespace characters` : parts.join(' ');
  }
  const t = [...text.trim()];
  return `"${t.slice(0, TEXT_CHARS).join('')}${t.length > TEXT_CHARS ? '…' : ''}"`;
}

/** The sentence for a cursor: token, role, and the first finding covering it (the one jumped to first). */
export function cursorSentence(
  cursor: number,
  n: number,
  token: TokenView,
  active: AnchoredDiagnostic | null,
  anchored: readonly AnchoredDiagnostic[],
): string {
  const role = token.role + (token.special ? ', special token' : '');
  const here = active ?? anchored.find((d) => d.start <= cursor && cursor < d.end) ?? null;
  const cut = (s: string) => (s.length > MESSAGE_CHARS ? `${s.slice(0, MESSAGE_CHARS)}…` : s);
  const finding = here ? ` ${here.diagnostic.severity} ${here.diagnostic.kind}: ${cut(here.diagnostic.message)}` : '';
  return `Token ${cursor + 1} of ${n}: ${speakableToken(token.text)}, ${role}.${finding}`;
}

export class CursorAnnouncer {
  readonly el = h('div', { class: 'cursor-announcer visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
  private timer: ReturnType<typeof setTimeout> | undefined;

  say(sentence: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.el.textContent !== sentence) this.el.textContent = sentence;
    }, SETTLE_MS);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.el.textContent = '';
  }
}
