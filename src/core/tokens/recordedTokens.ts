/**
 * Anchors a completion's recorded tokens to its text. Recorded tokens are ground truth where they agree with
 * the text; where the engine gave ids without text (vLLM `token_id:N`) or text the decoder could not split
 * (byte fragments), the text between special tokens is shared out over the run and marked approximate; where
 * the engine skipped special tokens when decoding the text, the text is rebuilt with them in place.
 */
import type { Completion, RecordedToken } from '../trace/record.ts';
import { isSpecialTokenId, specialTokenId, specialTokenText } from './kimiSpecialTokens.ts';
import { pretokenize } from './kimiPretokenizer.ts';
import type { Token, TokenizedCompletion, Tokenizer } from './token.ts';

interface Resolved {
  recorded: RecordedToken;
  special: boolean;
  /** The special token's string (from the text or the id table). */
  specialText: string | null;
}

function resolve(t: RecordedToken): Resolved {
  const idSpecial = t.id !== undefined && isSpecialTokenId(t.id);
  const textId = t.text ? specialTokenId(t.text) : undefined;
  if (idSpecial) return { recorded: t, special: true, specialText: t.text || specialTokenText(t.id as number) || null };
  if (textId !== undefined && t.id === undefined) return { recorded: t, special: true, specialText: t.text };
  return { recorded: t, special: false, specialText: null };
}

/** Shares `segment` over `count` tokens: pre-tokenizer pieces when there are enough, else code points. */
export function distribute(segment: string, count: number): string[] {
  if (count === 0) return [];
  let units = pretokenize(segment);
  if (units.length < count) units = Array.from(segment);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const from = Math.floor((i * units.length) / count);
    const to = Math.floor(((i + 1) * units.length) / count);
    out.push(units.slice(from, to).join(''));
  }
  return out;
}

export function tokenizeCompletion(completion: Completion, fallback: Tokenizer): TokenizedCompletion {
  const recorded = completion.tokens;
  if (!recorded || recorded.length === 0) {
    return { text: completion.text, tokens: fallback.tokenize(completion.text), origin: 'splitter' };
  }
  const aligned = align(completion.text, recorded.map(resolve));
  if ('error' in aligned) {
    return {
      text: completion.text,
      tokens: fallback.tokenize(completion.text),
      origin: 'splitter',
      warning: `recorded tokens do not match the completion text (${aligned.error}); showing an approximate split instead`,
    };
  }
  return aligned;
}

function align(text: string, resolved: Resolved[]): TokenizedCompletion | { error: string } {
  const texts: string[] = [];
  const approximate: boolean[] = [];
  let cursor = 0;
  let rebuilt = false;
  let group: number[] = [];

  /** Places the ordinary tokens of `group` over text[cursor, end). */
  const placeGroup = (end: number): void => {
    const segment = text.slice(cursor, end);
    const own = group.map((i) => (resolved[i] as Resolved).recorded.text);
    if (own.join('') === segment) {
      for (const [k, i] of group.entries()) {
        texts[i] = own[k] as string;
        approximate[i] = false;
      }
    } else {
      const shares = distribute(segment, group.length);
      for (const [k, i] of group.entries()) {
        texts[i] = shares[k] as string;
        approximate[i] = true;
      }
    }
    cursor = end;
    group = [];
  };

  for (let i = 0; i < resolved.length; i++) {
    const r = resolved[i] as Resolved;
    if (!r.special || r.specialText === null) {
      group.push(i);
      continue;
    }
    const s = r.specialText;
    const own = group.map((g) => (resolved[g] as Resolved).recorded.text).join('');
    const ownKnown = group.every((g) => (resolved[g] as Resolved).recorded.text !== '');
    if (ownKnown && text.startsWith(own + s, cursor)) {
      placeGroup(cursor + own.length);
    } else if (ownKnown && text.startsWith(own, cursor) && !text.startsWith(s, cursor + own.length)) {
      // The engine decoded with skip_special_tokens: the special token is missing from the text.
      placeGroup(cursor + own.length);
      texts[i] = s;
      approximate[i] = false;
      rebuilt = true;
      text = text.slice(0, cursor) + s + text.slice(cursor);
      cursor += s.length;
      continue;
    } else {
      const p = text.indexOf(s, cursor);
      if (p < 0) {
        if (group.length > 0 && ownKnown) return { error: `token ${i} (${s}) not found after "${own.slice(-20)}"` };
        // No text to place the preceding run against: insert the special here.
        placeGroup(cursor);
        texts[i] = s;
        approximate[i] = false;
        rebuilt = true;
        text = text.slice(0, cursor) + s + text.slice(cursor);
        cursor += s.length;
        continue;
      }
      placeGroup(p);
    }
    texts[i] = s;
    approximate[i] = false;
    cursor += s.length;
  }
  placeGroup(text.length);

  const tokens: Token[] = [];
  let at = 0;
  for (let i = 0; i < resolved.length; i++) {
    const r = resolved[i] as Resolved;
    const t = texts[i] as string;
    const token: Token = { index: i, text: t, charStart: at, charEnd: at + t.length, special: r.special, approximate: approximate[i] as boolean };
    if (r.recorded.id !== undefined) token.id = r.recorded.id;
    else if (r.special) {
      const id = specialTokenId(t);
      if (id !== undefined) token.id = id;
    }
    if (r.recorded.logprob !== undefined) token.logprob = r.recorded.logprob;
    if (r.recorded.top !== undefined) token.top = r.recorded.top;
    tokens.push(token);
    at += t.length;
  }
  const result: TokenizedCompletion = { text, tokens, origin: 'recorded' };
  if (rebuilt) result.rebuilt = true;
  return result;
}
