/**
 * The arguments of one call as they stream in. Leading whitespace is dropped (its span kept, for a note) and a
 * trailing whitespace run is held until more text shows it is inside the JSON: what the client receives never
 * depends on where the input was cut, and the arguments come out trimmed.
 */
import { isWhitespace } from './markupParser.ts';
import type { CharRange, ParsedCall } from '../toolCallFormat.ts';

export class StreamedArguments {
  /** Argument text sent so far (trimmed at the start). */
  text = '';
  /** Whitespace after the last sent character, not yet known to be inside the JSON. */
  held = '';
  /** The whitespace dropped before the first argument character. */
  leading: CharRange | null = null;

  /** Adds `piece` (at offset `at`); keeps `call.argumentsSpan` current; returns the fragment to send now ('' for none). */
  add(call: ParsedCall, piece: string, at: number): string {
    let rest = piece;
    let restAt = at;
    if (this.text === '') {
      let i = 0;
      while (i < rest.length && isWhitespace(rest[i] as string)) i++;
      if (i > 0) {
        if (this.leading === null) this.leading = { start: at, end: at + i };
        else this.leading.end = at + i;
      }
      rest = rest.slice(i);
      restAt += i;
      if (!rest) return '';
    }
    let j = rest.length;
    while (j > 0 && isWhitespace(rest[j - 1] as string)) j--;
    if (j === 0) {
      this.held += rest;
      return '';
    }
    const fragment = (this.text === '' ? '' : this.held) + rest.slice(0, j);
    if (this.text === '') call.argumentsSpan = { start: restAt, end: restAt + j };
    this.held = rest.slice(j);
    this.text += fragment;
    if (call.argumentsSpan) call.argumentsSpan.end = restAt + j;
    return fragment;
  }
}
