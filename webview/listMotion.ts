/**
 * What the record list tells the host about its motion (recordList.ts): that it moves (`listMoving`: the host then
 * holds its rows and findings, each message costing the page's frames and a browser workbench's, which relays it),
 * and, once it rests, the rows in view (`inView`: their what-ifs go first, and the host sends what it held).
 */

/**
 * How long the list stays still, with no frame of it still to come, before it counts as resting: the rows in view go
 * to the host, which then sends what it held while the list moved.
 */
const REST_MS = 150;
/** How often a list that goes on moving says so again, ms (the host takes it to rest after 5 s: traceEditorProvider.ts). */
const MOVING_RENEW_MS = 2000;
/** The same as REST_MS for a list that did not move (more rows came, the filters changed): told sooner. */
const IN_VIEW_MS = 60;

export interface ListMotionOptions {
  /** The list started moving (or goes on moving after MOVING_RENEW_MS). */
  onMoving?(): void;
  /** The list rests with the positions `from`–`to` in view. */
  onRest(from: number, to: number): void;
  /** Whether a frame of the list is still to come (a fling draws every frame). */
  framePending(): boolean;
}

export class ListMotion {
  /** The list moved since it was last told at rest (onMoving said so), and when onMoving was last called. */
  private moving = false;
  private movingToldAt = -Infinity;
  /** The rows in view as last told (`span`), the ones to tell, when they last changed, and the timer that tells. */
  private told = '';
  private from = 0;
  private to = -1;
  private changedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly opts: ListMotionOptions) {}

  /**
   * The list moved (the user scrolled it, or a selection revealed a row): the host is told, and told again every
   * MOVING_RENEW_MS while it goes on moving (the host takes a list it has not heard of for a while to rest).
   */
  moved(): void {
    if (!this.opts.onMoving) return;
    const now = performance.now();
    if (this.moving && now - this.movingToldAt < MOVING_RENEW_MS) return;
    this.moving = true;
    this.movingToldAt = now;
    this.opts.onMoving();
  }

  /**
   * The positions `from`–`to` are in view (`span` names them with what they show): told once the list rests (a
   * message per frame would queue behind the host's work); a list that was moving is told at rest even when the rows
   * in view are the ones told before.
   */
  inView(from: number, to: number, span: string): void {
    if (span === this.told && !this.moving) return;
    // The same rows drawn again (rows or findings arrived) are not a move: only new rows in view put the rest off,
    // or a list the host keeps sending to would never come to rest (it did, on a quiet machine).
    if (span !== this.told) {
      this.told = span;
      this.from = from;
      this.to = to;
      this.changedAt = performance.now();
    }
    // One timer for a run of frames (cleared and set again every frame of a fling, it cost the frame more than this).
    this.timer ??= setTimeout(() => this.tellWhenResting(), this.moving ? REST_MS : IN_VIEW_MS);
  }

  /** Tells the rows in view once the list has not moved for a while and no frame of it is still to come. */
  private tellWhenResting(): void {
    const quiet = this.moving ? REST_MS : IN_VIEW_MS;
    const wait = this.changedAt + quiet - performance.now();
    // A frame still to come (a fling draws each frame, and a busy page's frames come late): not at rest yet.
    if (wait > 1 || this.opts.framePending()) {
      this.timer = setTimeout(() => this.tellWhenResting(), Math.max(wait, quiet / 2));
      return;
    }
    this.timer = undefined;
    this.moving = false;
    this.opts.onRest(this.from, this.to);
  }
}
