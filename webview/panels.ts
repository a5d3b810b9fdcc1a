/** Resizable side panels: a separator you can drag or move with the arrow keys. */
import { h } from './dom.ts';

export interface SplitterOptions {
  label: string;
  /** Which side of the separator the panel is on: dragging towards it shrinks it. */
  side: 'left' | 'right';
  min: number;
  max: number;
  get(): number;
  set(width: number): void;
  commit(width: number): void;
}

export function splitter(opts: SplitterOptions): HTMLElement {
  const el = h('div', {
    class: `splitter splitter-${opts.side}`,
    role: 'separator',
    'aria-orientation': 'vertical',
    'aria-label': opts.label,
    tabindex: 0,
  });
  // The width shown while dragging: what the drag commits (the saved width changes only on commit).
  let shown = opts.get();
  const update = (w: number) => {
    const clamped = Math.round(Math.max(opts.min, Math.min(opts.max, w)));
    shown = clamped;
    opts.set(clamped);
    el.setAttribute('aria-valuenow', String(clamped));
    el.setAttribute('aria-valuemin', String(opts.min));
    el.setAttribute('aria-valuemax', String(opts.max));
    return clamped;
  };
  update(opts.get());
  el.addEventListener('pointerdown', (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    el.classList.add('dragging');
    const startX = e.clientX;
    const start = opts.get();
    const move = (ev: PointerEvent) => update(start + (opts.side === 'left' ? ev.clientX - startX : startX - ev.clientX));
    const up = (ev: PointerEvent) => {
      el.releasePointerCapture(ev.pointerId);
      el.classList.remove('dragging');
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      opts.commit(shown);
    };
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
  });
  el.addEventListener('keydown', (e) => {
    const step = e.shiftKey ? 64 : 16;
    let w: number | null = null;
    if (e.key === 'ArrowLeft') w = opts.get() + (opts.side === 'left' ? -step : step);
    else if (e.key === 'ArrowRight') w = opts.get() + (opts.side === 'left' ? step : -step);
    else if (e.key === 'Home') w = opts.min;
    else if (e.key === 'End') w = opts.max;
    if (w === null) return;
    e.preventDefault();
    e.stopPropagation();
    opts.commit(update(w));
  });
  return el;
}
