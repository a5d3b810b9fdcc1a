/** Long text from a trace (a message, a prompt, a response): its start, with a button for the rest. */
import { formatBytes, h, replace } from './dom.ts';

/** Characters shown before the button. */
export const FIRST_CHARS = 20000;

export function longText(text: string, cls = 'text-block'): HTMLElement {
  const pre = h('pre', { class: cls }, text.length > FIRST_CHARS ? text.slice(0, FIRST_CHARS) : text);
  if (text.length <= FIRST_CHARS) return pre;
  const more = h('button', { type: 'button', class: 'link show-all' }, `Show all ${formatBytes(text.length)}`);
  more.addEventListener('click', () => {
    replace(pre, text);
    more.remove();
  });
  return h('div', { class: 'long-text' }, pre, more);
}
