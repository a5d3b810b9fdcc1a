/**
 * One row of the record list, kept and refilled as the list scrolls: a row leaving the view takes the next record
 * coming into it, and only what differs is written (a 20k-row fling otherwise builds and throws away ~40 rows of a
 * dozen elements each per frame, and the style and layout passes that come with them).
 */
import type { RecordSummary } from '../src/shared/protocol.ts';
import { escapeBidiControls, hasBidiControls } from './bidiControls.ts';
import { clip, h, replace } from './dom.ts';
import { kindInfo, severityIcon } from './widgets.ts';

/** The text each row part shows now: compared, not read back from the DOM. */
const shownText = new WeakMap<HTMLElement, string>();

/** The text of an element, written only when it changed (through `replace`: bidi controls are shown, not applied). */
function setText(el: HTMLElement, text: string): void {
  if (shownText.get(el) === text) return;
  shownText.set(el, text);
  // The text node kept when it is the only child: changing its data relayouts less than a new node.
  const only = el.firstChild;
  if (only instanceof Text && only === el.lastChild && !hasBidiControls(text)) only.data = text;
  else replace(el, text);
}

/** An attribute, written only when it changed; trace text in it shows its bidi controls as escapes (as `h` does). */
function setAttrIfChanged(el: HTMLElement, name: string, value: string): void {
  const safe = escapeBidiControls(value);
  if (el.getAttribute(name) !== safe) el.setAttribute(name, safe);
}

/** What a row shows, beyond its record: where it is and whether it is selected. */
export interface RowPlace {
  pos: number;
  setSize: number;
  selected: boolean;
  height: number;
  /**
   * The list is flung (a screen and more a frame: nobody can read a row): the row shows its record's severity and id
   * only, its second line and counts once the list slows down (recordList.ts fills it again then).
   */
  light: boolean;
}

export class RecordRow {
  readonly el: HTMLElement;
  private readonly sev = severityIcon(null);
  private readonly id = h('span', { class: 'rec-id' });
  private readonly failed = h('span', { class: 'rec-failed', hidden: true }, 'failed');
  private readonly calls = h('span', { class: 'rec-calls' });
  private readonly model = h('span', { class: 'rec-model' });
  private readonly file = h('span', { class: 'rec-file' });
  private readonly badges = h('span', { class: 'rec-badges' });
  /** The badge elements, those in the page first: refilled in place, as the row is (a new element costs a style pass). */
  private readonly badgeEls: HTMLElement[] = [];
  private summary: RecordSummary | null = null;
  /** The record whose calls, model, file and badges the row shows; not `summary` while the row is light. */
  private detailed: RecordSummary | null = null;
  /** Whether the row has its `light` class (recordList.css: its second line and counts are not drawn). */
  private shownLight = false;
  /** Whether the row's tooltip is written for the record it shows (showTitle). */
  private titled = false;
  private place: RowPlace = { pos: -1, setSize: -1, selected: false, height: -1, light: false };

  constructor() {
    this.el = h(
      'div',
      { class: 'rec-row', role: 'option', 'aria-selected': 'false' },
      h('div', { class: 'rec-line1' }, this.sev, this.id, this.failed, this.calls),
      h('div', { class: 'rec-line2' }, this.model, this.file, this.badges),
    );
  }

  /** The position this row was last filled for. */
  get pos(): number {
    return this.place.pos;
  }

  /** Shows `s` at `place`, writing only what differs from what the row showed. */
  fill(s: RecordSummary, place: RowPlace): void {
    const was = this.place;
    if (place.pos !== was.pos) {
      this.el.id = `rec-opt-${place.pos}`;
      this.el.dataset.pos = String(place.pos);
      this.el.setAttribute('aria-posinset', String(place.pos + 1));
    }
    if (place.pos !== was.pos || place.height !== was.height) this.el.style.transform = `translateY(${place.pos * place.height}px)`;
    if (place.height !== was.height) this.el.style.height = `${place.height}px`;
    if (place.setSize !== was.setSize) this.el.setAttribute('aria-setsize', String(place.setSize));
    if (place.selected !== was.selected) {
      this.el.classList.toggle('selected', place.selected);
      this.el.setAttribute('aria-selected', place.selected ? 'true' : 'false');
    }
    this.place = { ...place };
    if (s !== this.summary) this.fillRecord(s);
    // Light, the row writes (and lays out) its first line only: a fling frame refills every row in view.
    if (!place.light && s !== this.detailed) this.fillDetails(s);
    const light = s !== this.detailed;
    if (light !== this.shownLight) {
      this.shownLight = light;
      this.el.classList.toggle('light', light);
    }
    // The selected row has its tooltip (its accessible description) at once; others when the pointer comes to them.
    if (place.selected) this.showTitle();
  }

  /**
   * Writes the row's tooltip for the record it shows. Only the row under the pointer and the selected row need one:
   * written for every row refilled, it cost each frame of a fling a long string built, escaped and compared per row.
   */
  showTitle(): void {
    const s = this.summary;
    if (this.titled || !s) return;
    this.titled = true;
    setAttrIfChanged(
      this.el,
      'title',
      clip(
        `${s.id}${s.model ? ` · ${s.model}` : ''} · line ${s.line}${s.file ? ` · ${s.file}` : ''}${s.failed ? `\nfailed: ${s.failed}` : ''}${s.preview ? `\n${s.preview}` : ''}`,
        600,
      ),
    );
  }

  /** The record's severity, id and failure: what even a light row shows. */
  private fillRecord(s: RecordSummary): void {
    this.summary = s;
    if (this.el.classList.contains('failed') !== Boolean(s.failed)) this.el.classList.toggle('failed', Boolean(s.failed));
    if (this.titled) {
      this.titled = false;
      this.el.removeAttribute('title');
    }
    const severity = s.worst ?? 'none';
    const label = s.worst ?? 'no findings';
    setAttrIfChanged(this.sev, 'class', `sev sev-${severity}`);
    setAttrIfChanged(this.sev, 'aria-label', label);
    setAttrIfChanged(this.sev, 'title', label);
    setText(this.id, clip(s.id, 160));
    if (this.failed.hidden !== !s.failed) this.failed.hidden = !s.failed;
    if (s.failed) setAttrIfChanged(this.failed, 'title', clip(s.failed, 400));
  }

  /** The record's calls, model, file and badges (the row's second line). */
  private fillDetails(s: RecordSummary): void {
    const before = this.detailed;
    this.detailed = s;
    setText(this.calls, `${s.calls} call${s.calls === 1 ? '' : 's'}`);
    setAttrIfChanged(this.calls, 'title', `${s.calls} tool call${s.calls === 1 ? '' : 's'}`);
    setText(this.model, clip(s.model ?? s.source, 60));
    setText(this.file, s.file ? `${clip(s.file, 60)}:${s.line}` : `line ${s.line}`);
    // The badges are rebuilt only when the findings (or the pending mark) differ: most rows that scroll in share none.
    if (!before || before.guidedPending !== s.guidedPending || !sameKinds(before.kinds, s.kinds)) this.fillBadges(s);
  }

  private fillBadges(s: RecordSummary): void {
    const badges = Object.entries(s.kinds)
      .map(([kind, count]) => ({ kind, count: count ?? 0, info: kindInfo(kind) }))
      .sort((a, b) => (a.info?.code ?? '').localeCompare(b.info?.code ?? ''));
    let n = 0;
    if (s.guidedPending) this.badge(n++, 'guided-pending muted', 'guided-decoding checks still running: more findings may come', '…');
    for (const b of badges)
      this.badge(
        n++,
        `kind-badge sev-${b.info?.severity ?? 'info'}`,
        `${b.info?.title ?? b.kind} (${b.kind}) × ${b.count}`,
        `${b.info?.code ?? b.kind}${b.count > 1 ? `×${b.count}` : ''}`,
      );
    // The badges past the last one shown leave the page (kept for a row that has more).
    for (let i = n; i < this.badgeEls.length && this.badgeEls[i]?.parentNode === this.badges; i++)
      (this.badgeEls[i] as HTMLElement).remove();
  }

  /** Shows badge `i` (the ones before it are in the page) with this class, tooltip and text. */
  private badge(i: number, cls: string, title: string, text: string): void {
    let el = this.badgeEls[i];
    if (!el) {
      el = h('span');
      this.badgeEls.push(el);
    }
    if (el.className !== cls) el.className = cls;
    setAttrIfChanged(el, 'title', title);
    setText(el, text);
    if (el.parentNode !== this.badges) this.badges.appendChild(el);
  }
}

function sameKinds(a: RecordSummary['kinds'], b: RecordSummary['kinds']): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}
