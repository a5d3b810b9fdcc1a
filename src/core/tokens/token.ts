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
  logprob?: number;
  top?: Array<{ text: string; logprob: number; id?: number }>;
}

/** Turns text into tokens. The Kimi splitter implements it now; a real BPE (user's tiktoken.model) can later. */
export interface Tokenizer {
  readonly name: string;
  /** True when token boundaries are an approximation of the model's real tokenizer. */
  readonly approximate: boolean;
  tokenize(text: string): Token[];
}

/** The tokens of a completion and the text they cover (rebuilt when the engine skipped special tokens). */
export interface TokenizedCompletion {
  text: string;
  tokens: Token[];
  /** Where the tokens came from. */
  origin: 'recorded' | 'splitter';
  /** The engine skipped special tokens when decoding: the text was rebuilt from the token ids. */
  rebuilt?: boolean;
  /** Why recorded tokens could not be used, when they could not. */
  warning?: string;
}
