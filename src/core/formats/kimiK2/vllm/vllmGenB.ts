/**
 * Generation B (vLLM 2043258de, PR 38579 until strict mode, Apr–Jun 2026): every delta re-parses the whole
 * text so far (quadratic in the completion) and sends what was not sent yet. Token ids are ignored.
 * - content is the text before the (plural) section begin, minus a suffix that could still become that
 *   marker; the held-back suffix is never sent if the stream ends there;
 * - a call's id and name go out once its argument marker has arrived, then the raw argument text is diffed
 *   (whitespace kept, a partial `<|tool_call_end|>` suffix held back);
 * - a header without `name:digit` stops every later call as well;
 * - text after the section end, and the singular section spellings' calls, never reach the client.
 */
import { ARGUMENT_BEGIN, CALL_BEGIN, CALL_END, SECTION_BEGIN } from '../kimiK2Markers.ts';
import type { ToolCallDelta } from '../../toolCallFormat.ts';
import { partialTagOverlap, PY_RE_DIGIT, PY_RE_DOT, pyStrip } from './pyText.ts';
import type { VllmDeltaMessage, VllmProfile, VllmStreamParser } from './vllmProfile.ts';
import { extractWithCallRegex, lastSegmentName } from './vllmRegexExtraction.ts';

const HEADER_ID = new RegExp(`^(${PY_RE_DOT}+:${PY_RE_DIGIT}+)`, 'u');

function splitBody(body: string): { header: string; args: string } | null {
  const at = body.indexOf(ARGUMENT_BEGIN);
  if (at < 0) return null;
  return { header: pyStrip(body.slice(0, at)), args: body.slice(at + ARGUMENT_BEGIN.length) };
}

/**
 * vLLM re-reads the whole text on every delta; the same answers come from reading each part once: the text
 * before the section (minus a held-back marker prefix), the bodies of finished calls, and the open call.
 */
class GenBStreamParser implements VllmStreamParser {
  /** Unsent text before the section: a suffix that may still become the section marker. */
  private held = '';
  private inSection = false;
  /** Section text after the last finished call. */
  private rest = '';
  private readonly finished: string[] = [];
  /** Calls before this index are finished and fully sent: re-reading them yields nothing. */
  private frontier = 0;
  private readonly names: Array<string | undefined> = [];
  private readonly streamedArgs: string[] = [];

  push(deltaText: string, _deltaTokenIds: readonly number[]): VllmDeltaMessage | null {
    const content = this.content(deltaText);
    const open = this.readCalls();
    const total = this.finished.length + (open === null ? 0 : 1);
    const deltas: ToolCallDelta[] = [];
    for (let i = this.frontier; i < total; i++) {
      if (i >= this.names.length) {
        this.names.push(undefined);
        this.streamedArgs.push('');
      }
      const isFinished = i < this.finished.length;
      const parts = splitBody(isFinished ? (this.finished[i] as string) : (open as string));
      if (this.names[i] === undefined) {
        const m = parts ? HEADER_ID.exec(parts.header) : null;
        const id = m ? pyStrip(m[1] as string) : '';
        const name = m ? lastSegmentName(id) : '';
        // A call that cannot be named blocks every call after it.
        if (!name) break;
        this.names[i] = name;
        deltas.push({ index: i, type: 'function', id, function: { name } });
      }
      const sent = this.streamedArgs[i] as string;
      if (parts && parts.args.length > sent.length) {
        deltas.push({ index: i, function: { arguments: parts.args.slice(sent.length) } });
        this.streamedArgs[i] = parts.args;
      }
      if (isFinished && i === this.frontier) this.frontier++;
    }
    if (content === null && deltas.length === 0) return null;
    const out: VllmDeltaMessage = {};
    if (content !== null) out.content = content;
    if (deltas.length) out.tool_calls = deltas;
    return out;
  }

  finish(): VllmDeltaMessage | null {
    return null;
  }

  /** New content before the section; what might still be the section marker is held (and never flushed). */
  private content(deltaText: string): string | null {
    if (this.inSection) {
      this.rest += deltaText;
      return null;
    }
    const pending = this.held + deltaText;
    const at = pending.indexOf(SECTION_BEGIN);
    let sendable: number;
    if (at >= 0) {
      this.inSection = true;
      this.held = '';
      this.rest = pending.slice(at);
      sendable = at;
    } else {
      sendable = pending.length - partialTagOverlap(pending, SECTION_BEGIN);
      this.held = pending.slice(sendable);
    }
    return sendable > 0 ? pending.slice(0, sendable) : null;
  }

  /** Moves newly finished calls out of `rest`; returns the open call's body (minus a partial end marker). */
  private readCalls(): string | null {
    if (!this.inSection) return null;
    for (;;) {
      const start = this.rest.indexOf(CALL_BEGIN);
      if (start < 0) {
        // No call begins here: only a marker prefix at the end can matter later.
        this.rest = this.rest.slice(-(CALL_BEGIN.length - 1));
        return null;
      }
      const bodyStart = start + CALL_BEGIN.length;
      const end = this.rest.indexOf(CALL_END, bodyStart);
      if (end < 0) {
        const body = this.rest.slice(bodyStart);
        return body.slice(0, body.length - partialTagOverlap(body, CALL_END));
      }
      this.finished.push(this.rest.slice(bodyStart, end));
      this.rest = this.rest.slice(end + CALL_END.length);
    }
  }
}

export const vllmGenB: VllmProfile = {
  generation: 'B',
  commit: '2043258de',
  description: 'vLLM Apr–Jun 2026 (PR 38579 – strict mode): re-parses the whole text on every delta',
  reasoningParser: {
    endsAtSection: true,
    source: 'KimiK2ReasoningParser (vLLM PR 33646, Feb 2026): ends at </think> or <|tool_calls_section_begin|>',
  },
  hasFinish: false,
  createStreamParser: () => new GenBStreamParser(),
  extract: extractWithCallRegex,
};
