/** Kimi K2 as a `ToolCallFormat`: markers, detection and the reference parser. */
import type { ParserOptions, StreamingParser, ToolCallFormat } from '../toolCallFormat.ts';
import { KIMI_MARKERS } from './kimiK2Markers.ts';
import { KimiK2Parser } from './kimiK2Parser.ts';

export const kimiK2Format: ToolCallFormat = {
  name: 'kimi_k2',
  displayName: 'Kimi K2',
  markers: KIMI_MARKERS.map((m) => m.text),
  detect(text: string): boolean {
    return /<\|tool_calls?_section_begin\|>|<\|tool_call_begin\|>|(?<![A-Za-z0-9_.])functions\.[A-Za-z0-9_.-]+:\d+/u.test(text);
  },
  createParser(options?: ParserOptions): StreamingParser {
    return new KimiK2Parser(options);
  },
};
