/**
 * From a completion's tokens to the deltas a vLLM server would have fed its tool parser. Special tokens keep
 * Kimi's real ids (generations A and C look at ids); ordinary tokens without an id get pseudo ids from 1000
 * up, one per distinct text, and a decode table so generation C can place the special tokens in each delta.
 */
import { isSpecialTokenId, specialTokenId } from '../kimiSpecialTokens.ts';
import { specialAt } from '../kimiSplitter.ts';

/** A token as recorded or split: text, and its vocabulary id when known. */
export interface DeltaToken {
  text: string;
  id?: number;
}

export interface VllmDelta {
  text: string;
  ids: number[];
}

export type DeltaGrouping =
  /** `perDelta` tokens per delta (1: one token per delta, as most servers stream). */
  | { kind: 'tokens'; perDelta: number }
  /** Every special token alone, the text between them as one delta. */
  | { kind: 'specials' }
  /** The delta texts a server actually sent (a recorded stream); tokens cut by a boundary are re-split. */
  | { kind: 'recorded'; texts: readonly string[] };

export interface DeltaPlan {
  deltas: VllmDelta[];
  /** The text of an id used in the plan (for `VllmStreamOptions.decodeToken`). */
  decodeToken: (id: number) => string | undefined;
}

export const FIRST_PSEUDO_ID = 1000;

// Word runs, whitespace runs, single other characters: the split the recorded vectors used.
const PIECE = /[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu;

/** Split text into special tokens (with ids) and word/space/punctuation pieces (without). */
export function pseudoTokenize(text: string): DeltaToken[] {
  const out: DeltaToken[] = [];
  const pieces = (from: number, to: number): void => {
    for (const m of text.slice(from, to).matchAll(PIECE)) out.push({ text: m[0] });
  };
  let last = 0;
  for (let at = nextCandidate(text, 0); at >= 0;) {
    const found = specialAt(text, at);
    if (found === null) {
      at = nextCandidate(text, at + 1);
      continue;
    }
    pieces(last, at);
    out.push({ text: found.text, id: found.id });
    last = at + found.text.length;
    at = nextCandidate(text, last);
  }
  pieces(last, text.length);
  return out;
}

function nextCandidate(text: string, from: number): number {
  const i = text.indexOf('<', from);
  const j = text.indexOf('[', from);
  return i < 0 ? j : j < 0 ? i : Math.min(i, j);
}

/** Tokens with ids: special texts get their real id, other id-less texts a pseudo id per distinct text. */
class IdAssigner {
  private readonly byText = new Map<string, number>();
  private readonly texts = new Map<number, string>();
  private next = FIRST_PSEUDO_ID;

  id(token: DeltaToken): number {
    let id = token.id ?? specialTokenId(token.text) ?? this.byText.get(token.text);
    if (id === undefined) {
      while (this.texts.has(this.next)) this.next++;
      id = this.next++;
      this.byText.set(token.text, id);
    }
    if (!this.texts.has(id)) this.texts.set(id, token.text);
    return id;
  }

  decode = (id: number): string | undefined => this.texts.get(id);
}

export function planDeltas(tokens: readonly DeltaToken[], grouping: DeltaGrouping): DeltaPlan {
  const { deltas, decodeToken } = streamDeltas(tokens, grouping);
  return { deltas: [...deltas], decodeToken };
}

/**
 * planDeltas one delta at a time: N-token deltas are made as they are read, so a long completion's plan (some 30,000
 * deltas of one token for 1000 calls) is never held whole. Ids are handed out in token order either way, and a
 * delta's ids are decoded once it is read, so the parser sees the same plan.
 */
export function streamDeltas(
  tokens: readonly DeltaToken[],
  grouping: DeltaGrouping,
): { deltas: Iterable<VllmDelta>; decodeToken: DeltaPlan['decodeToken'] } {
  const ids = new IdAssigner();
  const perDelta = grouping.kind === 'tokens' ? Math.max(1, Math.floor(grouping.perDelta)) : NaN;
  if (perDelta >= 1) return { deltas: byCount(tokens, perDelta, ids), decodeToken: ids.decode };
  const groups = group(tokens, grouping);
  const deltas = groups.map((g) => ({ text: g.map((t) => t.text).join(''), ids: g.map((t) => ids.id(t)) }));
  return { deltas, decodeToken: ids.decode };
}

/** `n` tokens per delta, without an array per group and a join per delta. */
function* byCount(tokens: readonly DeltaToken[], n: number, ids: IdAssigner): Generator<VllmDelta> {
  for (let i = 0; i < tokens.length; i += n) {
    const first = tokens[i] as DeltaToken;
    let text = first.text;
    const group = [ids.id(first)];
    for (let j = i + 1; j < i + n && j < tokens.length; j++) {
      const t = tokens[j] as DeltaToken;
      text += t.text;
      group.push(ids.id(t));
    }
    yield { text, ids: group };
  }
}

function group(tokens: readonly DeltaToken[], grouping: DeltaGrouping): DeltaToken[][] {
  switch (grouping.kind) {
    case 'tokens': {
      const n = Math.max(1, Math.floor(grouping.perDelta));
      const out: DeltaToken[][] = [];
      for (let i = 0; i < tokens.length; i += n) out.push(tokens.slice(i, i + n));
      return out;
    }
    case 'specials': {
      const out: DeltaToken[][] = [];
      let run: DeltaToken[] = [];
      for (const t of tokens) {
        const special = t.id !== undefined ? isSpecialTokenId(t.id) : specialTokenId(t.text) !== undefined;
        if (!special) {
          run.push(t);
          continue;
        }
        if (run.length) out.push(run);
        run = [];
        out.push([t]);
      }
      if (run.length) out.push(run);
      return out;
    }
    case 'recorded':
      return cutAt(tokens, grouping.texts);
  }
}

/** Cut the token sequence at the recorded delta boundaries. */
function cutAt(tokens: readonly DeltaToken[], texts: readonly string[]): DeltaToken[][] {
  const whole = tokens.map((t) => t.text).join('');
  if (whole !== texts.join('')) throw new Error('planDeltas: the recorded deltas do not spell the tokens’ text');
  const out: DeltaToken[][] = [];
  let ti = 0;
  let offset = 0; // into tokens[ti].text
  for (const text of texts) {
    const delta: DeltaToken[] = [];
    let need = text.length;
    while (need > 0) {
      const t = tokens[ti] as DeltaToken;
      const rest = t.text.length - offset;
      if (offset === 0 && rest <= need) {
        delta.push(t);
        need -= rest;
        ti++;
        continue;
      }
      // A boundary inside a token: its pieces are plain text, re-split.
      const take = Math.min(rest, need);
      delta.push(...pseudoTokenize(t.text.slice(offset, offset + take)));
      need -= take;
      offset += take;
      if (offset === t.text.length) {
        ti++;
        offset = 0;
      }
    }
    out.push(delta);
  }
  return out;
}
