/**
 * Generation C's event engine (vLLM b8fb56d, `vllm/parser/kimi_k2.py` on the declarative parser engine):
 * special-token ids split each delta into marker terminals and text, a lexer finds markers in the text, and a
 * state table turns both into semantic events. Once any delta carried token ids, a marker found only in the
 * text is content: markers count by token id alone. Arguments stream character by character except a
 * closing top-level `}` / `]`, held until more text (or the call's end) shows it was not the last.
 */
import { specialTokenId, specialTokenText } from '../kimiSpecialTokens.ts';
import { ARGUMENT_BEGIN, CALL_BEGIN, CALL_END, SECTION_BEGIN, SECTION_END, THINK_BEGIN, THINK_END } from '../kimiK2Markers.ts';
import { CONTENT, GenCLexer, type LexToken } from './vllmGenCLexer.ts';

type State = 'content' | 'preamble' | 'name' | 'args' | 'between';
type Terminal = 'think-start' | 'think-end' | 'section-start' | 'section-end' | 'tool-start' | 'tool-end' | 'arg-start';

export type EngineEventKind = 'text' | 'tool-start' | 'tool-name' | 'arg' | 'tool-end';

export interface EngineEvent {
  kind: EngineEventKind;
  value: string;
  tool: number;
  /**
   * On an 'arg' event that stands for the per-character events vLLM's engine makes (one per character sent, a held
   * bracket going out with the next): where the argument stood before it, to cut it back into them (argPieces).
   */
  run?: ArgRun;
}

/** Where a streaming JSON argument stands: bracket depth, inside a string, just after a backslash in one. */
interface ArgState {
  depth: number;
  inString: boolean;
  escaped: boolean;
}

/** The state before an argument run, and how many held characters from before lead its value. */
interface ArgRun extends ArgState {
  held: number;
}

/** Reads `ch` in state `s` (updated). True for a closing bracket back at the top level: it may be the last, so it is held. */
function holdsArgChar(s: ArgState, ch: string): boolean {
  if (s.escaped) {
    s.escaped = false;
  } else if (s.inString) {
    if (ch === '\\') s.escaped = true;
    else if (ch === '"') s.inString = false;
  } else if (ch === '"') {
    s.inString = true;
  } else if (ch === '{' || ch === '[') {
    s.depth += 1;
  } else if (ch === '}' || ch === ']') {
    if (s.depth > 0) s.depth -= 1;
    if (s.depth === 0) return true;
  }
  return false;
}

/** An 'arg' event's value as vLLM's engine sends it: one piece per character sent (held brackets joining the next). */
export function argPieces(e: EngineEvent): string[] {
  const run = e.run;
  if (!run) return [e.value];
  const state: ArgState = { depth: run.depth, inString: run.inString, escaped: run.escaped };
  const pieces: string[] = [];
  let from = 0;
  let at = run.held;
  for (const ch of e.value.slice(run.held)) {
    at += ch.length;
    if (!holdsArgChar(state, ch)) {
      pieces.push(e.value.slice(from, at));
      from = at;
    }
  }
  return pieces;
}

const TERMINALS: ReadonlyArray<readonly [text: string, terminal: Terminal]> = [
  [THINK_BEGIN, 'think-start'],
  [THINK_END, 'think-end'],
  [SECTION_BEGIN, 'section-start'],
  [SECTION_END, 'section-end'],
  [CALL_BEGIN, 'tool-start'],
  [CALL_END, 'tool-end'],
  [ARGUMENT_BEGIN, 'arg-start'],
];

const TERMINAL_BY_ID = new Map<number, Terminal>();
for (const [text, terminal] of TERMINALS) {
  const id = specialTokenId(text);
  if (id !== undefined) TERMINAL_BY_ID.set(id, terminal);
}

interface Transition {
  next: State;
  events: readonly EngineEventKind[];
}

/**
 * The Kimi K2 table. The stream starts in content (as recorded). After the section ends the parser stays in
 * the preamble state, so later text is dropped; a `</think>` in content is dropped; a `<think>` there has no
 * transition and stays content. Anything without a transition is text of the current state.
 */
const TRANSITIONS = new Map<string, Transition>([
  ['content|think-end', { next: 'content', events: [] }],
  ['content|section-start', { next: 'preamble', events: [] }],
  ['preamble|tool-start', { next: 'name', events: ['tool-start'] }],
  ['name|arg-start', { next: 'args', events: [] }],
  ['args|tool-end', { next: 'between', events: ['tool-end'] }],
  ['args|section-end', { next: 'preamble', events: ['tool-end'] }],
  ['between|tool-start', { next: 'name', events: ['tool-start'] }],
  ['preamble|section-end', { next: 'preamble', events: [] }],
  ['between|section-end', { next: 'preamble', events: [] }],
]);

/** What plain text becomes in each state; the preamble and the gaps between calls drop it. */
const TEXT_EVENT: Partial<Record<State, EngineEventKind>> = { content: 'text', name: 'tool-name', args: 'arg' };

type ScanItem = { kind: 'text'; text: string } | { kind: 'terminal'; terminal: Terminal; text: string };

/** Splits a delta at special-token ids, the way vLLM's TokenIDScanner does (detokenizer hold-back included). */
class Scanner {
  private deferred: Array<Extract<ScanItem, { kind: 'terminal' }>> = [];
  private deferredText = '';

  constructor(private readonly decode: (id: number) => string | undefined) {}

  get pending(): boolean {
    return this.deferred.length > 0;
  }

  scan(deltaText: string, ids: readonly number[]): ScanItem[] {
    let prefix: ScanItem[] = [];
    let text = deltaText;
    if (this.deferred.length) [prefix, text] = this.resolveDeferred(deltaText);
    if (!ids.some((id) => TERMINAL_BY_ID.has(id))) {
      if (text) prefix.push({ kind: 'text', text });
      return prefix;
    }
    let results: ScanItem[] = [];
    let run: string[] = [];
    let known = true;
    for (const id of ids) {
      const terminal = TERMINAL_BY_ID.get(id);
      const decoded = this.decode(id);
      if (terminal !== undefined) {
        if (run.length && run.join('')) results.push({ kind: 'text', text: run.join('') });
        run = [];
        results.push({ kind: 'terminal', terminal, text: decoded ?? '' });
      } else {
        if (decoded === undefined) known = false;
        run.push(decoded ?? '');
      }
    }
    if (run.length && run.join('')) results.push({ kind: 'text', text: run.join('') });
    if (text) {
      results = this.recoverHoldback(text, results, known);
    } else {
      // No text to place the markers in yet: they wait for the text of a later delta.
      for (const r of results) if (r.kind === 'terminal') this.deferred.push(r);
      results = [];
    }
    return [...prefix, ...results];
  }

  flush(): ScanItem[] {
    const out: ScanItem[] = [];
    if (this.deferredText) out.push({ kind: 'text', text: this.deferredText });
    this.deferredText = '';
    out.push(...this.deferred);
    this.deferred = [];
    return out;
  }

  private resolveDeferred(deltaText: string): [ScanItem[], string] {
    const waiting = this.deferred;
    this.deferred = [];
    const out: ScanItem[] = [];
    let rest = this.deferredText + deltaText;
    this.deferredText = '';
    for (const t of waiting) {
      const at = rest.indexOf(t.text);
      if (at >= 0) {
        if (at > 0) out.push({ kind: 'text', text: rest.slice(0, at) });
        out.push(t);
        rest = rest.slice(at + t.text.length);
      } else {
        this.deferredText += rest;
        rest = '';
        this.deferred.push(t);
      }
    }
    return [out, rest];
  }

  /** The delta text may start with text the detokenizer held back earlier: keep it in front. */
  private recoverHoldback(deltaText: string, results: ScanItem[], known: boolean): ScanItem[] {
    if (!results.length) return [{ kind: 'text', text: deltaText }];
    if (known) {
      const rebuilt = results.map((r) => r.text).join('');
      if (!rebuilt) return [{ kind: 'text', text: deltaText }, ...results];
      const at = deltaText.indexOf(rebuilt);
      if (at > 0) return [{ kind: 'text', text: deltaText.slice(0, at) }, ...results];
      if (at === 0) return results;
    }
    // Decoding disagrees with the text (or is unknown here): anchor the markers in the text instead.
    return this.rebuildFromAnchors(deltaText, results);
  }

  private rebuildFromAnchors(deltaText: string, results: ScanItem[]): ScanItem[] {
    const anchors = results.filter((r): r is Extract<ScanItem, { kind: 'terminal' }> => r.kind === 'terminal');
    if (!anchors.length) return [{ kind: 'text', text: deltaText }];
    // Right to left, each marker binds to its last occurrence before the next one.
    const positions = anchors.map(() => -1);
    let searchEnd = deltaText.length;
    for (let i = anchors.length - 1; i >= 0; i--) {
      const text = (anchors[i] as { text: string }).text;
      const at = searchEnd - text.length < 0 ? -1 : deltaText.lastIndexOf(text, searchEnd - text.length);
      if (at >= 0) {
        positions[i] = at;
        searchEnd = at;
      }
    }
    const out: ScanItem[] = [];
    let consumed = 0;
    anchors.forEach((anchor, i) => {
      const at = positions[i] as number;
      if (at >= consumed) {
        if (at > consumed) out.push({ kind: 'text', text: deltaText.slice(consumed, at) });
        out.push(anchor);
        consumed = at + anchor.text.length;
      } else {
        const laterPlaced = positions.slice(i + 1).some((p) => p >= 0);
        if (!laterPlaced && consumed < deltaText.length) {
          this.deferredText += deltaText.slice(consumed);
          consumed = deltaText.length;
        }
        this.deferred.push(anchor);
      }
    });
    if (consumed < deltaText.length) out.push({ kind: 'text', text: deltaText.slice(consumed) });
    return out;
  }
}

export class GenCEngine {
  private state: State = 'content';
  private tool = -1;
  private everHadIds = false;
  private readonly scanner: Scanner;
  private readonly lexer = new GenCLexer(TERMINALS);
  // Argument JSON streaming: the characters held back, and where the argument stands.
  private args = '';
  private readonly argState: ArgState = { depth: 0, inString: false, escaped: false };

  constructor(decodeText: (id: number) => string | undefined) {
    this.scanner = new Scanner((id) => specialTokenText(id) ?? decodeText(id));
  }

  feed(deltaText: string, ids: readonly number[]): EngineEvent[] {
    if (ids.length) this.everHadIds = true;
    // Plain text with nothing pending goes straight to the current state.
    if (
      deltaText &&
      !this.lexer.buffer &&
      !this.scanner.pending &&
      this.lexer.plain(deltaText) &&
      !ids.some((id) => TERMINAL_BY_ID.has(id))
    ) {
      return this.emitForState(deltaText);
    }
    const items = this.scanner.scan(deltaText, ids);
    const only = items[0];
    if (items.length === 1 && only?.kind === 'text') {
      const tokens = this.lexer.feed(only.text);
      const first = tokens[0];
      if (tokens.length === 1 && first?.terminal === CONTENT) return this.emitForState(first.value);
      return this.lexTokens(tokens);
    }
    return this.scanItems(items);
  }

  finish(): EngineEvent[] {
    const events = this.scanItems(this.scanner.flush());
    events.push(...this.lexTokens(this.lexer.flush()));
    if (this.args) {
      events.push({ kind: 'arg', value: this.args, tool: this.tool });
      this.args = '';
    }
    if (this.state !== 'content') {
      if (this.tool >= 0) events.push({ kind: 'tool-end', value: '', tool: this.tool });
      this.state = 'content';
    }
    return events;
  }

  private scanItems(items: readonly ScanItem[]): EngineEvent[] {
    const events: EngineEvent[] = [];
    for (const item of items) {
      if (item.kind === 'terminal') {
        events.push(...this.lexTokens(this.lexer.flush()));
        events.push(...this.onTerminal(item.terminal, item.text));
      } else {
        events.push(...this.lexTokens(this.lexer.feed(item.text)));
      }
    }
    return events;
  }

  private lexTokens(tokens: readonly LexToken[]): EngineEvent[] {
    const events: EngineEvent[] = [];
    for (const tok of tokens) {
      // With token ids about, a marker that is only text is text.
      if (tok.terminal === CONTENT || this.everHadIds) {
        if (tok.value) events.push(...this.emitForState(tok.value));
      } else {
        events.push(...this.onTerminal(tok.terminal as Terminal, tok.value));
      }
    }
    return events;
  }

  private onTerminal(terminal: Terminal, value: string): EngineEvent[] {
    const t = TRANSITIONS.get(`${this.state}|${terminal}`);
    if (!t) return this.emitForState(value);
    const events: EngineEvent[] = [];
    if (this.state === 'args' && t.next !== 'args' && this.args) {
      events.push({ kind: 'arg', value: this.args, tool: this.tool });
      this.args = '';
    }
    this.state = t.next;
    for (const kind of t.events) {
      if (kind === 'tool-start') this.tool += 1;
      events.push({ kind, value, tool: this.tool });
    }
    if (this.state === 'args') {
      this.argState.depth = 0;
      this.argState.inString = false;
      this.argState.escaped = false;
    }
    return events;
  }

  private emitForState(text: string): EngineEvent[] {
    if (this.state === 'args') return this.argText(text);
    const kind = TEXT_EVENT[this.state];
    return kind ? [{ kind, value: text, tool: this.tool }] : [];
  }

  /**
   * The characters of `text` that go out, as one event: vLLM sends each character as it comes except a closing
   * bracket back at the top level, held until more text shows it was not the last. One event per character made
   * ~50,000 events (and as many tool-call deltas to merge) on a 1000-call completion; the event's `run` lets the
   * reader cut it back into those characters where it reads them one by one (argPieces).
   */
  private argText(text: string): EngineEvent[] {
    const s = this.argState;
    const run: ArgRun = { depth: s.depth, inString: s.inString, escaped: s.escaped, held: this.args.length };
    let sent = -1;
    let at = this.args.length;
    for (const ch of text) {
      at += ch.length;
      if (!holdsArgChar(s, ch)) sent = at;
    }
    const all = this.args + text;
    if (sent < 0) {
      this.args = all;
      return [];
    }
    this.args = all.slice(sent);
    return [{ kind: 'arg', value: all.slice(0, sent), tool: this.tool, run }];
  }
}
