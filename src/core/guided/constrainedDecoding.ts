/**
 * Guided decoding for the embedded endpoint's scripted model, for a format whose call markup is special tokens of
 * the vocabulary (`guided.markupInVocabulary`, Kimi K2's): the script plays the model's preferred output, and a
 * GrammarMatcher over the byte vocabulary masks it token by token as xgrammar would mask a real model's logits. Where the
 * script is accepted it goes through unchanged; at a masked position the simulated model takes, in order:
 * - the grammar's jump-forward string (the only continuation: a tool name with one tool, `":"`, a closing tag);
 * - the section begin, when the script wrote call markup where free text may not hold it;
 * - the script again a few characters further on (what a model does once forced back on track: it goes on with
 *   what it meant, e.g. the argument value after a corrected key);
 * - else a deterministic choice among the allowed tokens that closes structures first, so the output ends.
 * After the script ends it completes what the grammar still requires, bounded in length. A simulator of the
 * effect guided decoding has (a hallucinated tool name becomes a declared one, a schema break a valid value), not
 * a model: it never claims which of the model's token ids would have been sampled.
 */
import type { VocabularyMarkup } from '../formats/toolCallFormat.ts';
import { nothingAllowed, readBitmask, type AllowedNext } from './allowedNext.ts';
import { SPECIAL_TEXTS_BY_LENGTH } from './byteVocabulary.ts';
import { pieces, stopOffset } from './completionPieces.ts';
import { readScriptedObject } from './scriptedArguments.ts';
import { ArgumentWriter } from './argumentWriter.ts';
import type { ConstrainedOutput } from './constrainedOutput.ts';

export type { ConstrainedOutput } from './constrainedOutput.ts';
import { tagExcludes, tagTools } from './tagTools.ts';
import { grammarStartOf } from './whatIf.ts';
import { newMatcher, type CompiledGrammar } from './xgrammar.ts';
import type { XgMatcher } from './xgrammarModule.ts';

export interface ConstrainOptions {
  /** `skip` (default, as vLLM): constrain only after the first `</think>`. */
  reasoning?: 'skip' | 'constrain';
  /** How many characters the grammar may add beyond the script before generation is cut. */
  maxExtra?: number;
}

/** More allowed bytes than this after a tag: the tag was swallowed as text (a JSON string, free text). */
const FREE_TEXT_BYTES = 64;

/** How far ahead the script is searched for a place to resume after a masked character. */
const RESYNC_WINDOW = 48;

/**
 * Deterministic preference among allowed continuations: close what is open (a string first: inside one every
 * special-token text is allowed as plain characters), then the tags (the call's end, the section's end, the
 * arguments' begin), then the simplest values.
 */
const CLOSERS = '"}]';
const preferredSpecials = (m: VocabularyMarkup) => [m.call.callEnd, m.sectionEnd, m.call.argumentsBegin];
const PREFERRED_CHARS = ',:1@.a234567890flsetrunbcdghijkmopqvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-/';
/** How wide and deep to look for a short way to a closer (an e-mail needs `@a` before its quote). */
const SEARCH_WIDTH = 16;
const SEARCH_DEPTH = 2;

/**
 * A jump-forward string cut before a tag it only begins (`…<|tool_call` is common to `<|tool_call_begin|>` and
 * `<|tool_calls_section_end|>`): the choice between the tags is the model's, made a whole tag at a time.
 */
function wholeTags(jump: string): string {
  const lt = jump.lastIndexOf('<');
  if (lt < 0) return jump;
  const tail = jump.slice(lt);
  const partial = SPECIAL_TEXTS_BY_LENGTH.some((t) => t.length > tail.length && t.startsWith(tail));
  return partial ? jump.slice(0, lt) : jump;
}

type Unit = { text: string; special: boolean };

function units(text: string, from: number, to: number): Unit[] {
  const out: Unit[] = [];
  for (const p of pieces(text, from, to)) {
    if (p.special) out.push({ text: p.text, special: true });
    else for (const ch of p.text) out.push({ text: ch, special: false });
  }
  return out;
}

class Decoder {
  out = '';
  forced = 0;
  dropped = 0;
  firstChange: number | null = null;
  /** Inside a call's arguments (after the argument begin, before the call end). */
  inArguments = false;
  /** The closing tag the grammar last supplied itself, so the script's own copy can be skipped. */
  suppliedClose: string | null = null;

  constructor(
    private readonly matcher: XgMatcher,
    private readonly grammar: CompiledGrammar,
    private readonly markup: VocabularyMarkup,
    private readonly excludes: ReadonlySet<string>,
    private readonly prefixLength: number,
  ) {}

  /**
   * Accepts a unit if the grammar allows it. Undone again: an excluded special that would kill the matcher, and a
   * special taken inside the arguments as mere characters of a JSON string (the model meant the tag; the string
   * has to close first).
   */
  async tryAccept(u: Unit): Promise<boolean> {
    if (!u.special) return this.matcher.acceptString(u.text);
    if (!this.matcher.acceptToken(this.grammar.vocabulary.specialIds.get(u.text) as number)) return false;
    const check = this.excludes.has(u.text) || this.inArguments;
    if (check) {
      const next = await this.allowed();
      if ((this.excludes.has(u.text) && nothingAllowed(next)) || (this.inArguments && next.bytes.length > FREE_TEXT_BYTES)) {
        this.matcher.rollBack(1);
        return false;
      }
    }
    return true;
  }

  async allowed(): Promise<AllowedNext> {
    return readBitmask(await this.matcher.nextTokenBitmask(), this.grammar.vocabulary, '');
  }

  emit(text: string, supplied: boolean): void {
    if (supplied) {
      this.firstChange ??= this.prefixLength + this.out.length;
      this.forced += text.length;
    }
    this.out += text;
    const { call } = this.markup;
    // A supplied string may hold several tags (a jump-forward `<|tool_call_end|><|tool_calls_section_end|>`).
    const args = text.lastIndexOf(call.argumentsBegin);
    const callEnd = text.lastIndexOf(call.callEnd);
    if (args >= 0 || callEnd >= 0) this.inArguments = args > callEnd;
    if (supplied) {
      const sectionEnd = text.lastIndexOf(this.markup.sectionEnd);
      if (sectionEnd >= 0 || callEnd >= 0) this.suppliedClose = sectionEnd > callEnd ? this.markup.sectionEnd : call.callEnd;
    }
  }

  /**
   * At the start of a call's arguments: writes the script's argument object aligned by key (ArgumentWriter).
   * Returns where the script goes on (its own closing tag), or null to go on unit by unit (arguments that are
   * not one JSON object, e.g. cut short, or a tool the tag does not describe).
   */
  async alignArguments(script: readonly Unit[], i: number): Promise<number | null> {
    const { call } = this.markup;
    let start = i;
    const prev = script[i - 1];
    if (!(prev?.special && prev.text === call.argumentsBegin)) {
      // The grammar wrote the call's header itself (a corrected name): the script's arguments follow its own tag.
      start = -1;
      for (let j = i; j < script.length; j++) {
        const u = script[j] as Unit;
        if (!u.special) continue;
        if (u.text === call.argumentsBegin) start = j + 1;
        break;
      }
      if (start < 0) return null;
    }
    let end = start;
    while (end < script.length && !(script[end] as Unit).special) end++;
    const seg = script
      .slice(start, end)
      .map((u) => u.text)
      .join('');
    const header = this.out.slice(
      this.out.lastIndexOf(call.callBegin) + call.callBegin.length,
      this.out.length - call.argumentsBegin.length,
    );
    const name = call.toolOf(header);
    const tool = tagTools(this.grammar.tag, call.toolOfTag).find((t) => t.name === name);
    const obj = readScriptedObject(seg);
    if (!tool || typeof tool.schema !== 'object' || !obj) return null;
    let text: string | null = null;
    if (this.matcher.acceptString(seg)) {
      // As written, if the arguments are complete there.
      if ((await this.allowed()).specials.includes(call.callEnd)) text = seg;
      else this.matcher.rollBack(1);
    }
    const lead = /^\s*/.exec(seg)?.[0] ?? '';
    const trail = /\s*$/.exec(seg)?.[0] ?? '';
    text ??= await new ArgumentWriter(this.matcher, this.grammar.vocabulary, tool.schema, [call.callEnd]).write(obj, lead, trail);
    if (text === null) return null;
    const skipped = script.slice(i, start).reduce((n, u) => n + u.text.length, 0);
    if (skipped > 0) {
      this.dropped += skipped;
      this.firstChange ??= this.prefixLength + this.out.length;
    }
    if (text !== seg) {
      let p = 0;
      while (p < text.length && p < seg.length && text[p] === seg[p]) p++;
      let q = 0;
      while (q < text.length - p && q < seg.length - p && text[text.length - 1 - q] === seg[seg.length - 1 - q]) q++;
      this.firstChange ??= this.prefixLength + this.out.length + p;
      this.forced += text.length - p - q;
      this.dropped += seg.length - p - q;
    }
    this.emit(text, false);
    return end;
  }

  /** Accepts a closer (`"`, `}`, `]`) only where it closes something, not as a character of a string. */
  private async close(ch: string): Promise<boolean> {
    if (!this.matcher.acceptString(ch)) return false;
    if (ch !== '"' && (await this.allowed()).bytes.length > FREE_TEXT_BYTES) {
      this.matcher.rollBack(1);
      return false;
    }
    return true;
  }

  /** A closer or a tag that can come now, accepted; null when none can. */
  private async closeOrTag(canEnd: boolean): Promise<string | 'end' | null> {
    const next = await this.allowed();
    if (canEnd && next.end) return 'end';
    for (const ch of CLOSERS) if (next.bytes.includes(ch.charCodeAt(0)) && (await this.close(ch))) return ch;
    for (const t of preferredSpecials(this.markup))
      if (next.specials.includes(t) && (await this.tryAccept({ text: t, special: true }))) return t;
    return null;
  }

  /** Allowed printable characters, in preference order. */
  private async candidates(): Promise<string[]> {
    const bytes = new Set((await this.allowed()).bytes);
    const out: string[] = [];
    for (const ch of PREFERRED_CHARS) if (bytes.has(ch.charCodeAt(0))) out.push(ch);
    for (const b of bytes)
      if (b > 0x20 && b < 0x7f && !PREFERRED_CHARS.includes(String.fromCharCode(b)) && !CLOSERS.includes(String.fromCharCode(b)))
        out.push(String.fromCharCode(b));
    return out.slice(0, SEARCH_WIDTH);
  }

  /**
   * The shortest run of characters (up to SEARCH_DEPTH) after which something can be closed, accepted with what
   * it leads to: e.g. `@a` before the closing quote of an e-mail address. Null when there is none that short.
   */
  private async searchClose(depth: number): Promise<string | null> {
    if (depth === 0) return null;
    const cands = await this.candidates();
    for (const ch of cands) {
      if (!this.matcher.acceptString(ch)) continue;
      const closed = await this.closeOrTag(false);
      if (closed !== null) return ch + closed;
      this.matcher.rollBack(1);
    }
    for (const ch of cands) {
      if (!this.matcher.acceptString(ch)) continue;
      const rest = await this.searchClose(depth - 1);
      if (rest !== null) return ch + rest;
      this.matcher.rollBack(1);
    }
    return null;
  }

  /** One grammar-chosen step: the forced string, the end, a closer or tag, a short way to one, or a value char. */
  async choose(canEnd: boolean): Promise<'ended' | 'stepped' | 'stuck'> {
    const jump = wholeTags(this.matcher.jumpForwardString());
    if (jump && this.matcher.acceptString(jump)) {
      this.emit(jump, true);
      return 'stepped';
    }
    const closed = await this.closeOrTag(canEnd);
    if (closed === 'end') return 'ended';
    if (closed !== null) {
      this.emit(closed, true);
      return 'stepped';
    }
    const path = await this.searchClose(SEARCH_DEPTH);
    if (path !== null) {
      this.emit(path, true);
      return 'stepped';
    }
    for (const ch of await this.candidates()) {
      if (this.matcher.acceptString(ch)) {
        this.emit(ch, true);
        return 'stepped';
      }
    }
    for (const s of (await this.allowed()).specials) {
      if (await this.tryAccept({ text: s, special: true })) {
        this.emit(s, true);
        return 'stepped';
      }
    }
    return 'stuck';
  }
}

/**
 * Where the script continues after the grammar supplied `close` itself: past the script's own copy when it comes
 * before any new call or section, else where it was.
 */
function skipPast(script: readonly Unit[], i: number, close: string, d: Decoder, markup: VocabularyMarkup): number {
  for (let j = i; j < script.length; j++) {
    const u = script[j] as Unit;
    if (!u.special) continue;
    if (u.text === close) {
      d.dropped += script.slice(i, j + 1).reduce((n, x) => n + x.text.length, 0);
      return j + 1;
    }
    if (u.text === markup.call.callBegin || u.text === markup.sectionBegin || u.text === markup.sectionEnd) return i;
  }
  return i;
}

/** Runs a scripted completion through a compiled grammar, as guided decoding would have shaped it. */
export async function constrainCompletion(
  grammar: CompiledGrammar,
  markup: VocabularyMarkup,
  scripted: string,
  options: ConstrainOptions = {},
): Promise<ConstrainedOutput> {
  const start = grammarStartOf(scripted, options.reasoning ?? 'skip');
  // Unfinished reasoning: the grammar never started.
  if (start === null) return { text: scripted, firstChange: null, forced: 0, dropped: 0, complete: true };
  const stopAt = stopOffset(scripted, start);
  const script = units(scripted, start, stopAt >= 0 ? stopAt : scripted.length);
  const prefix = scripted.slice(0, start);
  const matcher = await newMatcher(grammar);
  try {
    const d = new Decoder(matcher, grammar, markup, tagExcludes(grammar.tag), prefix.length);
    const { sectionBegin, call } = markup;
    const budget = script.length + (options.maxExtra ?? 4096);
    let i = 0;
    let steps = 0;
    /** Output length at which the arguments were last aligned by key (once per call). */
    let alignedAt = -1;
    while (i < script.length && steps++ < budget) {
      if (d.suppliedClose) {
        // The grammar closed the call or section itself: the script's rest of it is what the model meant there.
        i = skipPast(script, i, d.suppliedClose, d, markup);
        d.suppliedClose = null;
        continue;
      }
      if (d.inArguments && d.out.endsWith(call.argumentsBegin) && alignedAt !== d.out.length) {
        alignedAt = d.out.length;
        const resume = await d.alignArguments(script, i);
        if (resume !== null) {
          i = resume;
          continue;
        }
      }
      const u = script[i] as Unit;
      if (await d.tryAccept(u)) {
        d.emit(u.text, false);
        i++;
        continue;
      }
      // Whitespace between tags that the grammar refuses carries nothing the model meant: leave it out.
      if (!u.special && !d.inArguments && /^\s$/.test(u.text)) {
        d.dropped += u.text.length;
        d.firstChange ??= prefix.length + d.out.length;
        i++;
        continue;
      }
      // A tag inside the arguments: close the JSON first (closers come first in the grammar's choice).
      if (u.special && d.inArguments) {
        if ((await d.choose(false)) === 'stuck') break;
        continue;
      }
      // The model closes a string or object the grammar keeps open (an e-mail without "@"): take the grammar's
      // shortest way to a close rather than pour the rest of the arguments into the value.
      if (!u.special && d.inArguments && CLOSERS.includes(u.text)) {
        const before = d.out.length;
        if ((await d.choose(false)) === 'stuck') break;
        if (d.out.length > before && d.out.endsWith(u.text)) i++;
        continue;
      }
      // Call markup in free text: the section begin is what the grammar lets a call start with.
      if (u.special && (await d.allowed()).specials.includes(sectionBegin) && (await d.tryAccept({ text: sectionBegin, special: true }))) {
        d.emit(sectionBegin, true);
        continue;
      }
      const jump = wholeTags(matcher.jumpForwardString());
      if (jump && matcher.acceptString(jump)) {
        d.emit(jump, true);
        continue;
      }
      let resumed = false;
      for (let j = i + 1; j < script.length && j <= i + RESYNC_WINDOW; j++) {
        const next = script[j] as Unit;
        // Never resume past a tag: skipping `<|tool_call_end|><|tool_call_begin|>…` would lose the next call.
        if (!(await d.tryAccept(next))) {
          if (next.special) break;
          continue;
        }
        d.dropped += script.slice(i, j).reduce((n, x) => n + x.text.length, 0);
        d.firstChange ??= prefix.length + d.out.length;
        d.emit(next.text, false);
        i = j + 1;
        resumed = true;
        break;
      }
      if (resumed) continue;
      if ((await d.choose(false)) === 'stuck') break;
    }
    if (i < script.length) d.dropped += script.slice(i).reduce((n, x) => n + x.text.length, 0);
    // The script ended: finish what the grammar still requires.
    let complete = false;
    while (steps++ < budget) {
      const step = await d.choose(true);
      if (step === 'ended') {
        complete = true;
        break;
      }
      if (step === 'stuck') break;
    }
    if (d.firstChange === null && d.dropped > 0) d.firstChange = prefix.length + d.out.length;
    const tail = stopAt >= 0 ? scripted.slice(stopAt) : '';
    return { text: prefix + d.out + tail, firstChange: d.firstChange, forced: d.forced, dropped: d.dropped, complete };
  } finally {
    matcher.dispose();
  }
}
