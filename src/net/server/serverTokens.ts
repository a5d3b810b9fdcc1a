/**
 * Tokens for the simulator's output, split by the format's approximate tokenizer (its markers as single tokens):
 * a token keeps the id the tokenizer knows (Kimi K2's special tokens), other pieces get stable made-up ids (a hash
 * into the ordinary range), so `token_id:N` output and logprobs are deterministic. Not the model's real BPE.
 */
import { createHash } from 'node:crypto';
import type { Token, Tokenizer } from '../../core/tokens/token.ts';

export function simulatedTokens(text: string, tokenizer: Tokenizer): Array<Token & { id: number }> {
  return tokenizer.tokenize(text).map((t) => ({
    ...t,
    id: t.id ?? 1000 + (createHash('md5').update(t.text).digest().readUInt32BE(0) % 160000),
  }));
}
