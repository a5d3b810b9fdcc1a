/**
 * Splits a `text/event-stream` byte stream into events without changing a byte: each event comes out with its raw
 * bytes (every line and terminator as received, through the blank line that ends it) and its parsed fields, so a
 * proxy can forward an event as is, or rewrite just its data line. Line ends are CRLF, LF or CR (the SSE spec),
 * even when a CRLF is split across two network reads.
 */

export interface SseLine {
  /** The line's bytes without its terminator. */
  content: Buffer;
  /** The terminator as received: `\r\n`, `\n`, `\r`, or empty for the unterminated end of a stream. */
  terminator: Buffer;
}

export interface SseEvent {
  /** Every line of the event, the ending blank line included. */
  lines: SseLine[];
  /** The `data` field (data lines joined with `\n`), or null when the event has none (comments, keep-alives). */
  data: string | null;
  /** How many `data:` lines the event has. */
  dataLines: number;
  /** The `event:` field, if any. */
  type: string | null;
  /** Comment lines (`: …`), without the colon. */
  comments: string[];
}

const LF = 0x0a;
const CR = 0x0d;
const EMPTY = Buffer.alloc(0);
const CRLF_BYTES = Buffer.from('\r\n');
const LF_BYTES = Buffer.from('\n');
const CR_BYTES = Buffer.from('\r');
const decoder = new TextDecoder();

/** The raw bytes of an event, exactly as received. */
export function eventBytes(event: SseEvent): Buffer {
  return Buffer.concat(event.lines.flatMap((l) => [l.content, l.terminator]));
}

/** Field name and value of a line, as the SSE spec splits them (one space after the colon is dropped). */
export function fieldOf(line: Buffer): { name: string; value: string } {
  const text = decoder.decode(line);
  const colon = text.indexOf(':');
  if (colon < 0) return { name: text, value: '' };
  const value = text.slice(colon + 1);
  return { name: text.slice(0, colon), value: value.startsWith(' ') ? value.slice(1) : value };
}

export class SseEventSplitter {
  private lines: SseLine[] = [];
  /** Bytes of the line being read (no terminator seen yet). */
  private partial: Buffer[] = [];
  /** The last line ended in CR at the end of a read: a LF first in the next read belongs to it. */
  private pendingCr = false;

  /** Feeds bytes; returns the events they complete, in order. */
  push(chunk: Buffer): SseEvent[] {
    const events: SseEvent[] = [];
    let i = 0;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (chunk.length > 0 && chunk[0] === LF) {
        const last = this.lines[this.lines.length - 1];
        if (last) last.terminator = CRLF_BYTES;
        i = 1;
      }
      // The CR-ended line was held back only for this LF: now it may end the event.
      this.maybeDispatch(events);
    }
    let start = i;
    for (; i < chunk.length; i++) {
      const b = chunk[i];
      if (b !== LF && b !== CR) continue;
      const content = this.takePartial(chunk.subarray(start, i));
      if (b === CR) {
        if (i + 1 >= chunk.length) {
          // Is it CRLF? The next read will tell; hold the line until then.
          this.lines.push({ content, terminator: CR_BYTES });
          this.pendingCr = true;
          return events;
        }
        const crlf = chunk[i + 1] === LF;
        this.lines.push({ content, terminator: crlf ? CRLF_BYTES : CR_BYTES });
        if (crlf) i++;
      } else {
        this.lines.push({ content, terminator: LF_BYTES });
      }
      start = i + 1;
      this.maybeDispatch(events);
    }
    if (start < chunk.length) this.partial.push(chunk.subarray(start));
    return events;
  }

  /**
   * The end of the stream: whatever was not yet a whole event (a stream cut mid-event, or one whose server forgot
   * the final blank line), as a last event, or null when nothing is left.
   */
  end(): SseEvent | null {
    this.pendingCr = false;
    if (this.partial.length) this.lines.push({ content: this.takePartial(EMPTY), terminator: EMPTY });
    if (!this.lines.length) return null;
    const event = buildEvent(this.lines);
    this.lines = [];
    return event;
  }

  private takePartial(tail: Buffer): Buffer {
    if (!this.partial.length) return tail;
    const out = Buffer.concat([...this.partial, tail]);
    this.partial = [];
    return out;
  }

  /** A blank line ends the event (unless its CR may still be followed by a LF). */
  private maybeDispatch(events: SseEvent[]): void {
    if (this.pendingCr) return;
    const last = this.lines[this.lines.length - 1];
    if (!last || last.content.length > 0) return;
    events.push(buildEvent(this.lines));
    this.lines = [];
  }
}

function buildEvent(lines: SseLine[]): SseEvent {
  const data: string[] = [];
  const comments: string[] = [];
  let type: string | null = null;
  for (const line of lines) {
    if (line.content.length === 0) continue;
    if (line.content[0] === 0x3a) {
      comments.push(decoder.decode(line.content.subarray(1)));
      continue;
    }
    const { name, value } = fieldOf(line.content);
    if (name === 'data') data.push(value);
    else if (name === 'event') type = value;
  }
  return { lines, data: data.length ? data.join('\n') : null, dataLines: data.length, type, comments };
}
