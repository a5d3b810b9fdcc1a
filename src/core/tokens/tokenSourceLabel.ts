/** The line the record header shows about a completion's tokens: `tokens: o200k_harmony (exact, re-encoded)`. */
import type { TokenizedCompletion } from './token.ts';

export function tokenSourceLabel(completion: Pick<TokenizedCompletion, 'source' | 'tokenizer' | 'tokenizerNote'>): string {
  if (completion.source === 'approximate') return `tokens: approximate${completion.tokenizerNote ? ` — ${completion.tokenizerNote}` : ''}`;
  if (completion.source === 'recorded') return 'tokens: recorded (exact)';
  return `tokens: ${completion.tokenizer} (exact, re-encoded: the engine may have split differently)`;
}
