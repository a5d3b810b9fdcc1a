/**
 * Tokens per second for each tokenizer source on a ~100k-token completion: the approximate splitter, o200k_harmony
 * (built in), and o200k's real-size vocabulary written out as a user's files would be — a tiktoken.model (+ Kimi's
 * pattern and tokenizer_config.json), a tokenizer.json and a GGUF header — read by the loaders. Loading is timed
 * apart from encoding (a trace editor pays it once).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getFormat } from '../src/core/formats/registry.ts';
import { O200K_PATTERN, o200kHarmony, o200kRanks } from '../src/core/formats/harmony/o200kHarmony.ts';
import { clearLocalTokenizers, loadLocalTokenizer } from '../src/io/tokens/localTokenizer.ts';
import { KimiSplitter } from '../src/core/formats/kimiK2/kimiSplitter.ts';
import type { Tokenizer } from '../src/core/tokens/token.ts';

const ALPHABET = (() => {
  const printable = (b: number): boolean => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const out: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) out.push(printable(b) ? String.fromCharCode(b) : String.fromCharCode(256 + extra++));
  return out;
})();
const spell = (bytes: string): string => Array.from(bytes, (c) => ALPHABET[c.charCodeAt(0)]).join('');

/** A Harmony completion of about `tokens` o200k tokens: reasoning, then calls with nested JSON, prose in several scripts. */
function harmonyCompletion(tokens: number): string {
  const parts = ['<|channel|>analysis<|message|>The user wants several lookups; 東京と大阪の天気を比べます 🌦️.<|end|>'];
  let length = parts[0]?.length ?? 0;
  // About 3.8 characters per o200k token on this text.
  for (let i = 0; length / 3.8 < tokens; i++) {
    const part = `<|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"query": "topic number ${i} with some words", "filters": {"lang": "en", "since": "2025-0${(i % 9) + 1}-01"}, "note": "Größe ${i} — naïve café 😀"}<|call|>`;
    parts.push(part);
    length += part.length;
  }
  return parts.join('');
}

/** Merges from tiktoken ranks: each token is the last merge of its own bytes under the ranks below it. */
function recoverMerges(ranks: Map<string, number>): Array<[string, string]> {
  const merges: Array<[string, number, string, string]> = [];
  for (const [bytes, rank] of ranks) {
    if (bytes.length < 2) continue;
    const parts = Array.from(bytes);
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 1 < parts.length; i++) {
        const r = ranks.get((parts[i] as string) + (parts[i + 1] as string));
        if (r !== undefined && r < rank && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      parts.splice(best, 2, (parts[best] as string) + (parts[best + 1] as string));
    }
    if (parts.length === 2) merges.push([bytes, rank, parts[0] as string, parts[1] as string]);
  }
  return merges.sort((a, b) => a[1] - b[1]).map(([, , l, r]) => [l, r]);
}

function writeFiles(dir: string): { tiktoken: string; json: string; gguf: string } {
  const ranks = o200kRanks();
  const byRank = [...ranks].sort((a, b) => a[1] - b[1]);
  const tiktoken = join(dir, 'tiktoken');
  const json = join(dir, 'json');
  for (const d of [tiktoken, json]) mkdirSync(d);
  writeFileSync(join(tiktoken, 'tiktoken.model'), byRank.map(([b, r]) => `${Buffer.from(b, 'latin1').toString('base64')} ${r}`).join('\n'));
  writeFileSync(
    join(tiktoken, 'tokenizer_config.json'),
    JSON.stringify({ added_tokens_decoder: { [String(byRank.length)]: { content: '<|tool_calls_section_begin|>', special: true } } }),
  );
  const merges = recoverMerges(ranks);
  const vocab: Record<string, number> = {};
  for (const [b, r] of byRank) vocab[spell(b)] = r;
  const rustPattern = O200K_PATTERN.replaceAll(String.raw`\p{White_Space}`, String.raw`\s`).replaceAll(
    String.raw`\P{White_Space}`,
    String.raw`\S`,
  );
  writeFileSync(
    join(json, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      added_tokens: [],
      normalizer: null,
      pre_tokenizer: {
        type: 'Sequence',
        pretokenizers: [
          { type: 'Split', pattern: { Regex: rustPattern }, behavior: 'Isolated', invert: false },
          { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
        ],
      },
      post_processor: null,
      decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
      model: {
        type: 'BPE',
        dropout: null,
        unk_token: null,
        continuing_subword_prefix: '',
        end_of_word_suffix: '',
        fuse_unk: false,
        byte_fallback: false,
        ignore_merges: true,
        vocab,
        merges: merges.map(([l, r]) => `${spell(l)} ${spell(r)}`),
      },
    }),
  );
  const gguf = join(dir, 'o200k.gguf');
  writeFileSync(
    gguf,
    ggufBytes(
      byRank.map(([b]) => spell(b)),
      merges.map(([l, r]) => `${spell(l)} ${spell(r)}`),
    ),
  );
  return { tiktoken, json, gguf };
}

function ggufBytes(tokens: string[], merges: string[]): Buffer {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    return b;
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    return b;
  };
  const str = (s: string) => {
    const b = Buffer.from(s, 'utf8');
    return Buffer.concat([u64(b.length), b]);
  };
  const strings = (key: string, list: string[]) => [str(key), u32(9), u32(8), u64(list.length), ...list.map(str)];
  return Buffer.concat([
    Buffer.from('GGUF'),
    u32(3),
    u64(0),
    u64(4),
    str('tokenizer.ggml.model'),
    u32(8),
    str('gpt2'),
    str('tokenizer.ggml.pre'),
    u32(8),
    str('gpt-4o'),
    ...strings('tokenizer.ggml.tokens', tokens),
    ...strings('tokenizer.ggml.merges', merges),
  ]);
}

function rate(name: string, tokenizer: () => Tokenizer, text: string, log: (line: string) => void): void {
  const t0 = performance.now();
  const t = tokenizer();
  const loadMs = performance.now() - t0;
  t.tokenize(text.slice(0, 2000)); // warm up the JIT
  let runs = 0;
  let count: number;
  const start = performance.now();
  do {
    count = t.tokenize(text).length;
    runs++;
  } while (performance.now() - start < 500);
  const ms = (performance.now() - start) / runs;
  log(
    `  ${name.padEnd(34)} ${String(count).padStart(7)} tokens  load ${loadMs.toFixed(0).padStart(5)} ms  ${ms.toFixed(0).padStart(6)} ms  ${((count / ms) * 1000).toFixed(0).padStart(9)} tokens/s`,
  );
}

export function benchTokenizers(log: (line: string) => void): void {
  log('Tokenizer sources (a ~100k-token Harmony completion; o200k vocabulary for the file-based ones)');
  const text = harmonyCompletion(100_000);
  const dir = mkdtempSync(join(tmpdir(), 'toolscope-bench-tok-'));
  try {
    rate('approximate (Kimi splitter)', () => new KimiSplitter(), text, log);
    rate('o200k_harmony (built in)', o200kHarmony, text, log);
    const t0 = performance.now();
    const files = writeFiles(dir);
    log(
      `  (writing the o200k vocabulary as tiktoken.model, tokenizer.json and GGUF: ${((performance.now() - t0) / 1000).toFixed(1)} s, not counted)`,
    );
    clearLocalTokenizers();
    rate('tiktoken.model (o200k ranks)', () => loadLocalTokenizer(files.tiktoken, 'kimi_k2', getFormat('kimi_k2').tokenizer), text, log);
    rate('tokenizer.json (o200k as BPE)', () => loadLocalTokenizer(files.json, 'harmony', getFormat('harmony').tokenizer), text, log);
    rate('GGUF header (o200k, pre gpt-4o)', () => loadLocalTokenizer(files.gguf, 'harmony', getFormat('harmony').tokenizer), text, log);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
