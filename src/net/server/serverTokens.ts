/**
 * Token ids for the simulator's output: special tokens get Kimi's real ids; text pieces get stable made-up ids
 * (a hash into the ordinary range), so `token_id:N` output and logprobs are deterministic. Not Kimi's real BPE.
 */
import { createHash } from 'node:crypto';
import { KimiSplitter } from '../../core/tokens/kimiSplitter.ts';
import type { Token } from '../../core/tokens/token.ts';

const splitter = new KimiSplitter();

export function simulatedTokens(text: string): Array<Token & { id: number }> {
  return splitter.tokenize(text).map((t) => ({
    ...t,
    id: t.id ?? 1000 + (createHash('md5').update(t.text).digest().readUInt32BE(0) % 160000),
  }));
}
