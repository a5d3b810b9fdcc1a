/**
 * A model's `tokenizer.json` (Qwen, DeepSeek, Llama: Hugging Face tokenizers) run by `@huggingface/tokenizers`
 * (pure JavaScript, read from the user's file: nothing is fetched). The library gives ids and token strings; the
 * tokens are anchored to the text through their bytes (byte-level `Ġ…` spellings, SentencePiece `▁` and `<0x0A>`
 * byte tokens, added tokens as themselves). A tokenizer that rewrites the text (a normalizer, an added prefix space)
 * cannot be anchored: that is an error, and the caller shows approximate tokens, saying why.
 */
import type { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { byteEscapes, pushByteTokens } from './bytePairEncoder.ts';
import { byteLevelBytes } from './byteLevel.ts';
import type { Token, Tokenizer } from './token.ts';
import { nestedRepetition, tokenizerPatterns, PatternBudgetExceeded, type PatternBudget } from './regexBacktracking.ts';

const BYTE_TOKEN = /^<0x([0-9A-Fa-f]{2})>$/u;

/**
 * The library, loaded when a tokenizer.json is first read: building its module takes a few milliseconds, which every
 * `analyze` start paid while most runs use no tokenizer file.
 */
function hfTokenizer(): typeof HfTokenizer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers')).Tokenizer;
}

export class TokenizerJson implements Tokenizer {
  readonly approximate = false;
  private readonly hf: HfTokenizer;
  /** Added tokens (`<|im_end|>`, `<tool_call>`) by id: single tokens of the vocabulary, shown as special. */
  private readonly added = new Map<number, { content: string; special: boolean }>();
  private readonly byteLevel: boolean;
  /** Why this tokenizer stopped: its patterns ran past their budget once (every text after that is refused at once). */
  private overrun: string | null = null;

  /** `budget` bounds each encoding (the user's patterns run on V8's backtracking engine); none: unbounded. */
  constructor(
    readonly name: string,
    json: unknown,
    config: unknown,
    private readonly label: string,
    private readonly budget?: PatternBudget,
  ) {
    if (typeof json !== 'object' || json === null || typeof (json as { model?: unknown }).model !== 'object')
      throw new Error(`${label} is not a tokenizer.json (no "model")`);
    // Its patterns run on V8's backtracking engine with no step budget: one that can backtrack without end is refused.
    for (const pattern of tokenizerPatterns(json)) {
      const nested = nestedRepetition(pattern);
      if (nested)
        throw new Error(
          `${label}: the pattern ${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern)} repeats a repetition (${nested}), which can backtrack for ever on a text that almost matches`,
        );
    }
    try {
      this.hf = new (hfTokenizer())(json, (config ?? {}) as object);
    } catch (err) {
      throw new Error(`${label}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    for (const t of (json as { added_tokens?: unknown }).added_tokens instanceof Array
      ? (json as { added_tokens: unknown[] }).added_tokens
      : []) {
      const entry = t as { id?: unknown; content?: unknown; special?: unknown };
      if (typeof entry?.id === 'number' && typeof entry.content === 'string')
        this.added.set(entry.id, { content: entry.content, special: entry.special === true });
    }
    // Byte-level models spell bytes with GPT-2's alphabet; the others (SentencePiece BPE) use `▁` and `<0xNN>`.
    this.byteLevel = JSON.stringify([
      (json as { pre_tokenizer?: unknown }).pre_tokenizer ?? null,
      (json as { decoder?: unknown }).decoder ?? null,
    ]).includes('"ByteLevel"');
  }

  tokenize(text: string): Token[] {
    if (this.overrun !== null) throw new Error(this.overrun);
    const encode = () => this.hf.encode(text, { add_special_tokens: false });
    let ids: number[];
    try {
      ({ ids } = this.budget ? this.budget(text.length, encode) : encode());
    } catch (err) {
      if (!(err instanceof PatternBudgetExceeded)) throw err;
      // Stopped mid-match: the library's state is not to be trusted after that, and the next text may do the same.
      this.overrun = `${this.label}: its patterns ran past their budget on a text of ${text.length} characters (${err.message}): a pattern that backtracks without end; this tokenizer is not used again`;
      throw new Error(this.overrun, { cause: err });
    }
    const parts: Array<[string, number]> = ids.map((id) => [this.bytesOf(id), id]);
    let all = parts.map(([b]) => b).join('');
    const expected = Buffer.from(text, 'utf8').toString('latin1');
    // SentencePiece models put a space before the first word: it is the tokenizer's, not the text's.
    if (!this.byteLevel && all !== expected && all === ` ${expected}` && parts[0]?.[0].startsWith(' ')) {
      parts[0] = [parts[0][0].slice(1), parts[0][1]];
      all = expected;
    }
    if (all !== expected) {
      let at = 0;
      while (at < all.length && all[at] === expected[at]) at++;
      throw new Error(
        `${this.label} rewrites the text (at byte ${at} it gives ${byteEscapes(all.slice(at, at + 8))}, the text has ${byteEscapes(expected.slice(at, at + 8))}): its tokens cannot be placed on the completion`,
      );
    }
    const tokens: Token[] = [];
    pushByteTokens(text, 0, parts, tokens, (id) => this.added.has(id));
    return tokens;
  }

  private bytesOf(id: number): string {
    const added = this.added.get(id);
    if (added) return Buffer.from(added.content, 'utf8').toString('latin1');
    const token = this.hf.id_to_token(id) ?? '';
    if (this.byteLevel) {
      const bytes = byteLevelBytes(token);
      if (bytes !== null) return bytes;
    }
    const byte = BYTE_TOKEN.exec(token);
    if (byte) return String.fromCharCode(parseInt(byte[1] as string, 16));
    return Buffer.from(token.replaceAll('▁', ' '), 'utf8').toString('latin1');
  }
}
