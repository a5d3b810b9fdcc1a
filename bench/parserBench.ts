/**
 * Parser throughput on generated completions: streaming with 1-token deltas at 1k, 10k and 100k tokens (the
 * ratio between sizes shows whether cost is linear), and the one-shot form.
 */
import { KimiK2Parser, parseKimiK2 } from '../src/core/formats/kimiK2/kimiK2Parser.ts';
import { KimiSplitter } from '../src/core/formats/kimiK2/kimiSplitter.ts';

/** A realistic completion of about `tokens` tokens: prose, then a section of calls with nested JSON. */
export function generateCompletion(tokens: number): string {
  const parts: string[] = ['<think>The user wants several lookups; I will search for each topic and compare.</think>'];
  parts.push('I will run several searches and compare the results. ');
  parts.push('<|tool_calls_section_begin|>');
  let i = 0;
  let length = parts.join('').length;
  // About 4 characters per splitter token on this text; stop when the budget is reached.
  while (length / 4 < tokens) {
    length +=
      parts[
        parts.push(
          `<|tool_call_begin|>functions.search:${i}<|tool_call_argument_begin|>{"query": "topic number ${i} with some words", "filters": {"lang": "en", "since": "2025-0${(i % 9) + 1}-01"}, "top_k": ${(i % 20) + 1}}<|tool_call_end|>`,
        ) - 1
      ]?.length ?? 0;
    i++;
  }
  parts.push('<|tool_calls_section_end|>');
  return parts.join('');
}

function time(fn: () => void, minMs = 300): number {
  // Repeat until the sample is long enough to time reliably; return ms per run.
  let runs = 0;
  const start = performance.now();
  do {
    fn();
    runs++;
  } while (performance.now() - start < minMs);
  return (performance.now() - start) / runs;
}

export function benchParser(log: (line: string) => void): void {
  const splitter = new KimiSplitter();
  log('Kimi K2 reference parser (generated completions, splitter tokens)');
  log('  tokens     size      stream 1-token deltas        one-shot');
  const perToken: number[] = [];
  for (const n of [1_000, 10_000, 100_000]) {
    const text = generateCompletion(n);
    const tokens = splitter.tokenize(text).map((t) => t.text);
    const mb = Buffer.byteLength(text) / 1e6;
    const streamMs = time(() => {
      const p = new KimiK2Parser();
      for (const t of tokens) p.push(t);
      p.finish();
    });
    const oneShotMs = time(() => parseKimiK2(text));
    perToken.push(streamMs / tokens.length);
    log(
      `  ${String(tokens.length).padStart(7)}  ${(mb * 1000).toFixed(0).padStart(6)} KB  ${streamMs.toFixed(2).padStart(8)} ms ${(mb / (streamMs / 1000)).toFixed(1).padStart(7)} MB/s  ${oneShotMs.toFixed(2).padStart(8)} ms ${(mb / (oneShotMs / 1000)).toFixed(1).padStart(7)} MB/s`,
    );
  }
  const [a, , c] = perToken;
  if (a && c) log(`  cost per token 100k vs 1k: ${(c / a).toFixed(2)}× (1.0 = linear)`);
}
