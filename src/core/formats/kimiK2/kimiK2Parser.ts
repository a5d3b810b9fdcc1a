/**
 * The reference streaming parser for Kimi K2 completions: the sectioned-call parser of the kernel with Kimi's
 * markers, ids written as `functions.name:index`, and (optionally) recovery of calls written without the special
 * tokens.
 *
 * Inside `<think>`, a section begin ends the reasoning and its calls are calls: current vLLM's `kimi_k2` reasoning
 * parser, SGLang's Kimi K2 reasoning detector and llama.cpp's Kimi K2 parser all do so (docs/formats/kimi-k2.md).
 * A bare `<|tool_call_begin|>` stays reasoning (vLLM and SGLang keep it there; llama.cpp alone ends at it).
 *
 * Stance (DESIGN §4): lose nothing and say what happened. Whitespace around ids and arguments is trimmed and
 * noted; ids are kept as written; text between or after sections stays content; calls without a section
 * begin still parse; undeclared names and invalid JSON are kept as they are. With raw-fallback recovery, a
 * candidate `functions.name:0 {…}` call in content is held back until it is known to be one.
 */
import { SectionedCallParser, type SectionedCallConfig } from '../kernel/sectionedCallParser.ts';
import type { ParsedCall, ParseResult, ParserOptions } from '../toolCallFormat.ts';
import { KIMI_MARKERS, nameFromCallId } from './kimiK2Markers.ts';
import { findRawFallbackCalls, RawFallbackScanner, type RawFallbackPiece } from './rawFallbackScanner.ts';

const KIMI_K2: SectionedCallConfig = {
  label: 'KimiK2Parser',
  markers: KIMI_MARKERS,
  header: (text) => ({ id: text, name: nameFromCallId(text) }),
  turnEndClosesCall: false,
  sectionBeginEndsThink: true,
  wording: {
    sectionNeverClosed: 'the tool-call section is never closed: no <|tool_calls_section_end|>',
    textResumes: 'tool calls without <|tool_calls_section_end|>; text resumes here',
    callWithoutSectionBegin:
      'a tool call without a section begin: the call is not inside <|tool_calls_section_begin|> … <|tool_calls_section_end|>',
    sectionEndWithoutBegin: 'a section end without <|tool_calls_section_begin|>',
    secondSeparator: 'a second argument marker inside one call',
    newlineAfterCallBegin: 'a newline after <|tool_call_begin|>',
    whitespaceBeforeHeader: 'whitespace before the call id',
    whitespaceAfterHeader: 'whitespace after the call id',
    whitespaceAfterSeparator: 'whitespace after the argument marker',
    whitespaceBeforeCallEnd: 'whitespace before the call end marker',
  },
};

export class KimiK2Parser extends SectionedCallParser {
  private readonly fallback: RawFallbackScanner | null;

  constructor(options: ParserOptions = {}) {
    super(KIMI_K2, options);
    this.fallback = options.recoverRawFallback ? new RawFallbackScanner() : null;
  }

  protected override contentText(text: string, at: number): void {
    if (!this.fallback) return this.emitContent(text, at);
    for (const piece of this.fallback.feed(text, at)) this.fallbackPiece(piece);
  }

  protected override beforeMarker(at: number): void {
    this.flushFallback(at);
  }

  protected override end(at: number): void {
    this.flushFallback(at);
    super.end(at);
    if (!this.fallback) this.detectRawFallback();
  }

  private flushFallback(at: number): void {
    if (!this.fallback) return;
    for (const piece of this.fallback.flush(at)) this.fallbackPiece(piece);
  }

  /** Without recovery, raw fallback calls stay content; find them so the loss is reported. */
  private detectRawFallback(): void {
    let cursor = 0;
    for (const span of this.contentSpans) {
      const length = span.end - span.start;
      for (const hit of findRawFallbackCalls(this.content.slice(cursor, cursor + length))) {
        this.note(
          'raw-fallback',
          span.start + hit.start,
          span.start + hit.end,
          `${hit.id} written without special tokens (left as content)`,
        );
      }
      cursor += length;
    }
  }

  private fallbackPiece(piece: RawFallbackPiece): void {
    if (piece.kind === 'text') {
      this.emitContent(piece.text, piece.at);
      return;
    }
    const index = this.calls.length;
    const call: ParsedCall = {
      index,
      id: piece.id,
      name: nameFromCallId(piece.id),
      arguments: piece.arguments,
      span: piece.span,
      idSpan: piece.idSpan,
      argumentsSpan: piece.argumentsSpan,
      terminated: true,
      source: 'raw-fallback',
    };
    this.calls.push(call);
    this.note('raw-fallback', piece.span.start, piece.span.end, `${piece.id} written without special tokens (recovered)`);
    this.out.addCall({ index, id: call.id, type: 'function', function: { name: call.name } });
    this.out.addCall({ index, function: { arguments: call.arguments } });
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseKimiK2(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new KimiK2Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
