/**
 * Tool-call markup of any registered format in a piece of text a client reads as prose (a response's content or
 * reasoning), whatever format the record was detected as. Each format is asked through the registry for its leak
 * fragments and its parser; nothing here knows a format by name. The calls a format's parser finds in the text are
 * the calls that were written but never delivered.
 */
import { formatNames, getFormat } from '../formats/registry.ts';
import type { ToolCallFormat } from '../formats/toolCallFormat.ts';

export interface MarkupCall {
  index: number;
  /** The id as written (empty for formats whose model writes none). */
  id: string;
  name: string;
  arguments: string;
  terminated: boolean;
  start: number;
  end: number;
  argumentsStart: number | null;
  argumentsEnd: number | null;
}

export interface FormatMarkup {
  format: ToolCallFormat;
  /** The format's first leak fragment in the text. */
  first: { start: number; end: number; text: string };
  /** The calls the format's own parser finds in the text (markup calls only). */
  calls: MarkupCall[];
}

/** The earliest leak fragment of `format` in `text`, or null. */
export function firstLeakFragment(format: ToolCallFormat, text: string): FormatMarkup['first'] | null {
  let first: FormatMarkup['first'] | null = null;
  for (const f of format.leakFragments) {
    const at = text.indexOf(f);
    if (at >= 0 && (!first || at < first.start || (at === first.start && f.length > first.text.length))) first = { start: at, end: at + f.length, text: f };
  }
  return first;
}

/** The calls `format`'s parser finds in `text` read as a whole completion. */
export function parseMarkupCalls(format: ToolCallFormat, text: string, tools?: ReadonlyArray<{ function: { name: string; parameters?: unknown } }>): MarkupCall[] {
  const parser = format.createParser(tools ? { tools } : {});
  parser.push(text);
  parser.finish();
  return parser
    .result()
    .calls.filter((c) => c.source === 'markup')
    .map((c, index) => ({
      index,
      id: c.id,
      name: c.name,
      arguments: c.arguments,
      terminated: c.terminated,
      start: c.span.start,
      end: c.span.end,
      argumentsStart: c.argumentsSpan?.start ?? null,
      argumentsEnd: c.argumentsSpan?.end ?? null,
    }));
}

/**
 * Every registered format whose markup is in `text`, earliest first, each with the calls its parser finds there.
 * Formats sharing a marker (Hermes and Qwen3-Coder both write `<tool_call>`) each appear; `bestMarkup` picks one.
 */
export function scanToolMarkup(text: string, tools?: ReadonlyArray<{ function: { name: string; parameters?: unknown } }>): FormatMarkup[] {
  const found: FormatMarkup[] = [];
  for (const format of formatNames().map(getFormat)) {
    const first = firstLeakFragment(format, text);
    if (!first) continue;
    found.push({ format, first, calls: parseMarkupCalls(format, text, tools) });
  }
  return found.sort((a, b) => a.first.start - b.first.start);
}

/** The format that explains the markup best: the most calls parsed, then the earliest markup (registration order on ties). */
export function bestMarkup(found: readonly FormatMarkup[]): FormatMarkup | null {
  let best: FormatMarkup | null = null;
  for (const f of found) if (!best || f.calls.length > best.calls.length || (f.calls.length === best.calls.length && f.first.start < best.first.start)) best = f;
  return best;
}
