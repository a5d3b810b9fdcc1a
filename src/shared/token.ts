/**
 * A token of a completion, anchored to the completion text by character offsets.
 * Recorded tokens (ids from the engine) are ground truth; split tokens are marked `approximate`.
 */
export interface Token {
  index: number;
  text: string;
  /** Start offset in the completion text (UTF-16 code units, inclusive). */
  charStart: number;
  /** End offset (exclusive). */
  charEnd: number;
  /** Vocabulary id when known (recorded, or a special token's real id). */
  id?: number;
  /** A special token of the vocabulary (a marker, `<|im_end|>`, `<think>` …). */
  special: boolean;
  /** The split was inferred, not recorded: the UI says so. */
  approximate: boolean;
  /**
   * A byte-level token that holds part of a character (`\xF0\x9F`): its own bytes, shown instead of `text` (which
   * holds the characters that end in it, possibly none).
   */
  bytes?: string;
  logprob?: number;
  top?: Array<{ text: string; logprob: number; id?: number }>;
}

/**
 * Where a completion's token ids come from: what the engine `recorded`; the model's own tokenizer run again on the
 * text (`re-encoded`: real ids, but the engine may have generated a different split); or Toolscope's
 * `approximate` splitter (markers exact, the rest pre-tokenizer pieces).
 */
export type TokenSource = 'recorded' | 're-encoded' | 'approximate';

/** Turns text into tokens: an approximate splitter, or a model's real tokenizer (bytePairEncoder.ts, tokenizerJson.ts). */
export interface Tokenizer {
  /** What to call it in the record header: `o200k_harmony`, `tiktoken.model (Kimi-K2-Instruct)`… */
  readonly name: string;
  /** True when token boundaries are an approximation of the model's real tokenizer. */
  readonly approximate: boolean;
  tokenize(text: string): Token[];
}

/** The tokens of a completion and the text they cover (rebuilt when the engine skipped special tokens). */
export interface TokenizedCompletion {
  text: string;
  tokens: Token[];
  /** Recorded tokens, or the text split by a tokenizer (`source` says whether that one is exact). */
  origin: 'recorded' | 'splitter';
  /** Where the ids came from. */
  source: TokenSource;
  /** The tokenizer that made them (`recorded` for the engine's own tokens). */
  tokenizer: string;
  /** Why the model's real tokenizer was not used, when the tokens are approximate (`set toolscope.tokenizer`…). */
  tokenizerNote?: string;
  /** The engine skipped special tokens when decoding: the text was rebuilt from the token ids. */
  rebuilt?: boolean;
  /** Why recorded tokens could not be used, when they could not. */
  warning?: string;
}

/** Calls `piece(start, end)` for each pre-tokenizer piece of text[from, to), in order, tiling the range. */
export type PieceSplitter = (text: string, from: number, to: number, piece: (start: number, end: number) => void) => void;
