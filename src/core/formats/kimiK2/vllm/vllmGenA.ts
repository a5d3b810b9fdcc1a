/**
 * Generation A (vLLM f1816fb, the parser from Dec 2025 until PR 38579): section state found by text in a
 * rolling buffer, call state found by counting `<|tool_call_begin|>` / `<|tool_call_end|>` token ids, and the
 * call itself re-read with non-DOTALL regexes. Its bugs fall out of that design and are kept on purpose:
 * - a call that begins and ends in one delta is never streamed (the counts balance before it is seen);
 * - arguments stop at the first newline (`.` does not cross `\n`), and a newline right after
 *   `<|tool_call_begin|>` hides the whole call;
 * - `content: ""` is returned between the section begin and the first call, and for section markers;
 * - text after the section end leaks as content; a section over 8192 characters is dumped into content;
 * - the id goes out as soon as `name:digit` is readable, so `:1` is sent for `:10`;
 * - the singular section markers are recognised, as text.
 */
import {
  ARGUMENT_BEGIN,
  CALL_BEGIN,
  CALL_END,
  SECTION_BEGIN,
  SECTION_BEGIN_SINGULAR,
  SECTION_END,
  SECTION_END_SINGULAR,
} from '../kimiK2Markers.ts';
import { specialTokenId } from '../kimiSpecialTokens.ts';
import type { ToolCallDelta } from '../../toolCallFormat.ts';
import {
  firstPiece,
  lastPiece,
  PY_RE_DIGIT,
  PY_RE_DOT,
  PY_RE_SPACE,
  pyAt,
  PyIndexError,
  pyLen,
  pyLstrip,
  pyRstrip,
  pySet,
  pyStrip,
  pyTail,
  reEscape,
  removeAll,
} from './pyText.ts';
import type { VllmDeltaMessage, VllmProfile, VllmStreamParser } from './vllmProfile.ts';
import { extractWithCallRegex, lastSegmentName } from './vllmRegexExtraction.ts';

const BEGIN_VARIANTS = [SECTION_BEGIN, SECTION_BEGIN_SINGULAR];
const END_VARIANTS = [SECTION_END, SECTION_END_SINGULAR];
// Only spellings that are single vocabulary tokens have ids: the singular markers have none.
const SECTION_BEGIN_IDS = BEGIN_VARIANTS.map(specialTokenId).filter((id): id is number => id !== undefined);
const CALL_BEGIN_ID = specialTokenId(CALL_BEGIN) as number;
const CALL_END_ID = specialTokenId(CALL_END) as number;

const BUFFER_MAX = 1024;
const SECTION_MAX = 8192;

/** `re.match`: anchored at the start, not at the end; `.` stops at `\n`. */
const PORTION = new RegExp(
  `^(?<id>${PY_RE_DOT}+:${PY_RE_DIGIT}+)${PY_RE_SPACE}*${reEscape(ARGUMENT_BEGIN)}${PY_RE_SPACE}*(?<args>${PY_RE_DOT}*)`,
  'u',
);
const HEADER_ONLY = new RegExp(`^(?<id>${PY_RE_DOT}+:${PY_RE_DIGIT}+)${PY_RE_SPACE}*`, 'u');

/** What generation A reads from the token ids so far: call-marker counts and whether a section began. */
interface IdTally {
  starts: number;
  ends: number;
  section: boolean;
}

interface CallState {
  id?: string;
  name?: string;
  arguments?: string;
}

function stripSectionMarkers(text: string): { cleaned: string; begin: boolean; end: boolean } {
  let cleaned = text;
  let begin = false;
  let end = false;
  for (const v of BEGIN_VARIANTS) {
    if (cleaned.includes(v)) {
      cleaned = removeAll(cleaned, v);
      begin = true;
    }
  }
  for (const v of END_VARIANTS) {
    if (cleaned.includes(v)) {
      cleaned = removeAll(cleaned, v);
      end = true;
    }
  }
  return { cleaned, begin, end };
}

/**
 * `text.split(marker)[-1]` of a growing text, kept incrementally: re-reading the whole text on every delta
 * makes long completions quadratic.
 */
class TextSinceMarker {
  private pieces: string[] = [];
  /** The last `marker.length - 1` characters: a marker may straddle two deltas. */
  private tail = '';

  constructor(private readonly marker: string) {}

  append(delta: string): void {
    const probe = this.tail + delta;
    const at = probe.lastIndexOf(this.marker);
    if (at >= 0) this.pieces = [probe.slice(at + this.marker.length)];
    else this.pieces.push(delta);
    this.tail = probe.slice(-(this.marker.length - 1));
  }

  text(): string {
    const text = this.pieces.join('');
    this.pieces = [text];
    return text;
  }
}

const count = (ids: readonly number[], id: number): number => ids.reduce((n, x) => (x === id ? n + 1 : n), 0);

const argsDelta = (index: number, args: string): VllmDeltaMessage => ({ tool_calls: [{ index, function: { arguments: args } }] });

class GenAStreamParser implements VllmStreamParser {
  /** Only the text after the last `<|tool_call_begin|>` is ever read from the text so far. */
  private readonly sinceCall = new TextSinceMarker(CALL_BEGIN);
  // vLLM rescans all token ids on every delta; running tallies give the same answers in linear time.
  private ids: IdTally = { starts: 0, ends: 0, section: false };

  private nameSent = false;
  private readonly prevCalls: CallState[] = [];
  private currentTool = -1;
  private inSection = false;
  private buffer = '';
  private sectionChars = 0;

  push(deltaText: string, deltaTokenIds: readonly number[]): VllmDeltaMessage | null {
    this.sinceCall.append(deltaText);
    const previous = this.ids;
    const current: IdTally = {
      starts: previous.starts + count(deltaTokenIds, CALL_BEGIN_ID),
      ends: previous.ends + count(deltaTokenIds, CALL_END_ID),
      section: previous.section || SECTION_BEGIN_IDS.some((id) => deltaTokenIds.includes(id)),
    };
    const out = this.step(deltaText, previous, current, deltaTokenIds);
    this.ids = current;
    return out;
  }

  finish(): VllmDeltaMessage | null {
    return null;
  }

  private resetSection(): void {
    this.inSection = false;
    this.buffer = '';
    this.sectionChars = 0;
  }

  private step(deltaText: string, previous: IdTally, current: IdTally, deltaIds: readonly number[]): VllmDeltaMessage | null {
    let deferredExit = false;
    this.buffer += deltaText;
    // UTF-16 length bounds the code-point length: count code points only when it might matter.
    if (this.buffer.length > BUFFER_MAX && pyLen(this.buffer) > BUFFER_MAX) this.buffer = pyTail(this.buffer, BUFFER_MAX / 2);

    const buffered = stripSectionMarkers(this.buffer);
    if (buffered.begin && !this.inSection) {
      this.inSection = true;
      this.buffer = buffered.cleaned;
      this.sectionChars = 0;
    }
    if (buffered.end && this.inSection) {
      if (deltaIds.includes(CALL_END_ID)) {
        // The call closes in this delta too: leave the section only after it has been handled.
        deferredExit = true;
        this.buffer = buffered.cleaned;
      } else {
        this.resetSection();
        let after = '';
        for (const v of END_VARIANTS) {
          const at = deltaText.indexOf(v);
          if (at >= 0) {
            after = deltaText.slice(at + v.length);
            break;
          }
        }
        return { content: pyStrip(after) ? after : '' };
      }
    } else {
      this.buffer = buffered.cleaned;
    }

    if (!current.section && !this.inSection) return { content: deltaText };

    const delta = stripSectionMarkers(deltaText).cleaned;

    if (this.inSection) {
      this.sectionChars += pyLen(delta);
      if (this.sectionChars > SECTION_MAX) {
        this.resetSection();
        return { content: pyStrip(delta) ? delta : '' };
      }
    }

    try {
      return this.callStep(delta, previous, current, deltaIds, deferredExit);
    } catch (e) {
      // vLLM's own try/except: the delta is dropped and nothing else happens (not even a deferred exit).
      if (e instanceof PyIndexError) return null;
      throw e;
    }
  }

  private callStep(
    deltaIn: string,
    before: IdTally,
    after: IdTally,
    deltaIds: readonly number[],
    deferredExit: boolean,
  ): VllmDeltaMessage | null {
    let delta = deltaIn;
    const { starts: prevStarts, ends: prevEnds } = before;
    const { starts: curStarts, ends: curEnds } = after;
    let portion: string | null = null;
    let textPortion: string | null = null;
    const finishDeferred = (): void => {
      if (deferredExit && this.inSection) this.resetSection();
    };

    if (curStarts === curEnds && prevEnds === curEnds && !delta.includes(CALL_END)) {
      // Text between section begin and the first call is swallowed as an empty content delta.
      if (this.inSection && curStarts === 0) return { content: '' };
      return { content: delta };
    }

    if (delta.includes(CALL_END)) {
      // The delta is counted twice here (current text already ends with it): a bug, kept.
      portion = pyRstrip(firstPiece(lastPiece(this.sinceCall.text() + delta, CALL_BEGIN), CALL_END));
      delta = pyRstrip(firstPiece(delta, CALL_END));
      textPortion = pyLstrip(lastPiece(delta, CALL_END));
    }

    if (curStarts > curEnds && curStarts > prevStarts) {
      // A call begins: with a lone marker token there is nothing to read yet.
      portion = deltaIds.length > 1 ? this.sinceCall.text() : null;
      textPortion = null;
      this.currentTool += 1;
      this.nameSent = false;
    } else if (curStarts > curEnds && curStarts === prevStarts) {
      portion = this.sinceCall.text();
      textPortion = null;
    } else if (curStarts === curEnds && curEnds >= prevEnds) {
      if (this.prevCalls.length === 0) {
        finishDeferred();
        return null;
      }
      const known = pyAt(this.prevCalls, this.currentTool).arguments;
      if (known) {
        // Closing: whatever precedes the last `"}` of this delta is sent, the rest is lost.
        if (!delta.includes('"}')) {
          finishDeferred();
          return null;
        }
        const diff = delta.slice(0, delta.lastIndexOf('"}')) + '"}';
        finishDeferred();
        return argsDelta(this.currentTool, diff);
      }
    } else {
      if (this.inSection) {
        if (deferredExit) this.resetSection();
        return { content: '' };
      }
      const text = removeAll(removeAll(delta, CALL_BEGIN), CALL_END);
      finishDeferred();
      return { content: text };
    }

    let current: CallState = {};
    if (portion) {
      const m = PORTION.exec(portion);
      if (m?.groups) {
        const id = m.groups.id ?? '';
        current = { id: pyStrip(id), name: lastSegmentName(id), arguments: m.groups.args ?? '' };
      } else {
        const h = HEADER_ONLY.exec(portion);
        if (!h?.groups) return null;
        const id = h.groups.id ?? '';
        current = { id: pyStrip(id), name: lastSegmentName(id), arguments: '' };
      }
    }

    if (!this.nameSent) {
      if (!current.name) return null;
      this.nameSent = true;
      const call: ToolCallDelta = { index: this.currentTool, type: 'function', function: { name: current.name } };
      if (current.id !== undefined) call.id = current.id;
      return { tool_calls: [call] };
    }

    if (portion === null) {
      if (this.inSection) return null;
      return textPortion !== null ? { content: delta } : null;
    }

    if (this.prevCalls.length <= this.currentTool) this.prevCalls.push({});
    const prevArgs = pyAt(this.prevCalls, this.currentTool).arguments;
    const curArgs = current.arguments;
    let out: VllmDeltaMessage | null = null;
    if (curArgs && !prevArgs) {
      out = argsDelta(this.currentTool, curArgs);
    } else if (curArgs && prevArgs) {
      if (curArgs !== prevArgs && curArgs.length > prevArgs.length && curArgs.startsWith(prevArgs)) {
        out = argsDelta(this.currentTool, curArgs.slice(prevArgs.length));
      }
    }
    if (this.currentTool === this.prevCalls.length - 1) pySet(this.prevCalls, this.currentTool, current);
    else this.prevCalls.push(current);
    finishDeferred();
    return out;
  }
}

export const vllmGenA: VllmProfile = {
  generation: 'A',
  commit: 'f1816fb',
  description: 'vLLM Mar 2026 (Dec 2025 – PR 38579): token-id counting, non-DOTALL regexes, section buffer',
  // The era began with kimi_k2 mapped to DeepSeek-R1's reasoning parser (PR 28128, Nov 2025): </think> only.
  reasoningParser: { endsAtSection: false, source: 'DeepSeekR1ReasoningParser as kimi_k2 (vLLM PR 28128): ends only at </think>' },
  hasFinish: false,
  createStreamParser: () => new GenAStreamParser(),
  extract: extractWithCallRegex,
};
