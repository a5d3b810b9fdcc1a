/**
 * The only way the webview builds DOM. Trace text is hostile: it becomes text nodes or the value of a safe
 * attribute, never markup. `h` refuses event-handler attributes, URL-bearing attributes and inline styles, and
 * refuses tags that load or run anything. (Layout positions are set through the CSSOM, which the CSP allows.)
 * Bidirectional control characters are never applied: they are shown as escapes (bidiControls.ts).
 */
import { bidiEscape, bidiPieces, bidiTooltip, escapeBidiControls, hasBidiControls } from './bidiControls.ts';

export type Child = Node | string | number | null | undefined | false | readonly Child[];
export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = Readonly<Record<string, AttrValue>>;

/** Attributes that run code, load something, or carry styles: never set from here. */
const FORBIDDEN_ATTRIBUTE =
  /^(on|href$|src$|srcset$|srcdoc$|action$|formaction$|data$|style$|xlink:href$|poster$|background$|ping$|codebase$)/i;
const FORBIDDEN_TAG =
  /^(script|iframe|frame|object|embed|link|style|base|meta|form|img|svg|math|template|a|area|video|audio|source|portal)$/i;

export function isSafeAttribute(name: string): boolean {
  return /^[a-z][a-z0-9-]*$/i.test(name) && !FORBIDDEN_ATTRIBUTE.test(name);
}

export function setAttr(el: Element, name: string, value: AttrValue): void {
  if (!isSafeAttribute(name)) throw new Error(`refusing to set attribute "${name}"`);
  if (value === false || value === null || value === undefined) el.removeAttribute(name);
  else el.setAttribute(name, value === true ? '' : escapeBidiControls(String(value)));
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(parent, ...(c as readonly Child[]));
    else if (typeof c === 'string' && hasBidiControls(c)) appendShowingControls(parent, c);
    else if (typeof c === 'string' || typeof c === 'number') parent.appendChild(document.createTextNode(String(c)));
    else parent.appendChild(c as Node);
  }
}

/** Text with bidi control characters: each one a visible escape with a tooltip, the rest plain text. */
function appendShowingControls(parent: Node, text: string): void {
  for (const piece of bidiPieces(text)) {
    if (!piece.control) {
      parent.appendChild(document.createTextNode(piece.text));
      continue;
    }
    const shown = document.createElement('span');
    shown.className = 'bidi-control';
    shown.title = bidiTooltip(piece.text);
    shown.textContent = bidiEscape(piece.text);
    parent.appendChild(shown);
  }
}

/** Creates an element; strings among the children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement;
export function h(tag: string, attrs?: Attrs | null, ...children: Child[]): HTMLElement {
  if (FORBIDDEN_TAG.test(tag)) throw new Error(`refusing to create <${tag}>`);
  const el = document.createElement(tag);
  if (attrs) for (const [name, value] of Object.entries(attrs)) setAttr(el, name, value);
  append(el, ...children);
  return el;
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/** At most `max` characters of `s` for a label (the whole text stays available elsewhere). */
export function clip(s: string, max = 200): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** Focusable elements the user types into or activates: their keys are theirs. */
export function isFormControl(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return Boolean(
    target.closest(
      'input, textarea, select, vscode-textfield, vscode-textarea, vscode-single-select, vscode-multi-select, vscode-checkbox',
    ),
  );
}

export function isButtonLike(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return Boolean(
    target.closest('button, vscode-button, vscode-toolbar-button, vscode-collapsible, [role="tab"], [role="separator"], summary'),
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} characters`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} K characters`;
  return `${(n / 1024 / 1024).toFixed(1)} M characters`;
}

/** Pretty JSON when the text parses, else null. */
export function prettyJson(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}
