/**
 * Controls that come into the page after its first frame: until then each holds its place, an empty box its CSS gives
 * the control's size, so nothing moves when it comes. For controls whose first render (web components rendering
 * their shadow DOM, a select its closed dropdown with a layout of its own) the first record's paint does not need.
 */
import { h } from './dom.ts';

export class LaterControls {
  private readonly waiting: Array<[place: HTMLElement, control: HTMLElement]> = [];

  /** The place `control` takes later (`slot`: the class that sizes it). */
  place(control: HTMLElement, slot: string): HTMLElement {
    const place = h('div', { class: `later-slot ${slot}`, 'aria-hidden': 'true' });
    this.waiting.push([place, control]);
    return place;
  }

  /** Each control in its place; again is nothing. */
  attach(): void {
    for (const [place, control] of this.waiting.splice(0)) place.replaceWith(control);
  }
}
