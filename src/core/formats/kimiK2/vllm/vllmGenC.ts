/**
 * Generation C (vLLM b8fb56d, Jul 2026): the declarative parser engine (see vllmGenCEngine.ts) plus the
 * layer that turns its events into DeltaMessages.
 * - markers count only as special-token ids: a marker spelled in plain text (split across tokens, or the
 *   singular section spellings) is content;
 * - a call's id and name go out with its first argument chunk, merged into one tool-call entry per delta;
 *   a call with no argument text is announced at its end with `arguments: ""`;
 * - the closing top-level brace is held until the call ends; argument whitespace is kept;
 * - text after the section end, between calls and before the first call is dropped, so is `</think>`;
 * - whitespace-only content is held back until non-space content follows, and dropped once calls exist;
 * - non-streaming returns unterminated calls too, with `{}` for empty arguments, and keeps dotted names.
 */
import type { ToolCallDelta } from '../../toolCallFormat.ts';
import { PY_RE_DIGIT, PY_RE_DOT, PY_RE_SPACE, firstPiece, pyStrip } from './pyText.ts';
import { GenCEngine, argPieces, type EngineEvent } from './vllmGenCEngine.ts';
import type { VllmDeltaMessage, VllmExtraction, VllmProfile, VllmStreamOptions, VllmStreamParser } from './vllmProfile.ts';

const TOOL_ID = new RegExp(`^(${PY_RE_DOT}+:${PY_RE_DIGIT}+)`, 'u');
const NAME_IN_ARGS = new RegExp(`"name"${PY_RE_SPACE}*:${PY_RE_SPACE}*"([^"]*)"`, 'u');

interface Slot {
  id: string;
  /** The raw header until a name is parsed from it. */
  name: string;
  args: string;
  nameSent: boolean;
}

/** `functions.web.search:0` → id as written, name `web.search` (only the `functions.` prefix goes). */
function idAndName(header: string): { id: string; name: string } | null {
  const m = TOOL_ID.exec(pyStrip(header));
  if (!m) return null;
  const id = pyStrip(m[1] as string);
  const name = firstPiece(id.startsWith('functions.') ? id.slice('functions.'.length) : id, ':');
  return { id, name };
}

/** `json.dumps(value, ensure_ascii=False)` for parsed JSON (numbers as JavaScript prints them). */
function pyJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pyJsonDumps(v)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A body without a usable header: `{"name": …, "arguments": …}` style JSON, as the engine reads it. */
function nameAndArgsFromJson(raw: string): { name: string; args: string } {
  const body = pyStrip(raw);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { name: '', args: body };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { name: '', args: body };
  const obj = parsed as Record<string, unknown>;
  const name = typeof obj.name === 'string' ? obj.name : '';
  for (const key of ['arguments', 'parameters']) {
    if (key in obj) {
      const v = obj[key];
      return { name, args: typeof v === 'string' ? v : pyJsonDumps(v) };
    }
  }
  const rest = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== 'name'));
  return { name, args: pyJsonDumps(rest) };
}

function coalesce(deltas: ToolCallDelta[]): ToolCallDelta[] {
  const merged = new Map<number, ToolCallDelta>();
  for (const d of deltas) {
    const have = merged.get(d.index);
    if (!have) {
      merged.set(d.index, d);
      continue;
    }
    if (d.id !== undefined && have.id === undefined) have.id = d.id;
    if (d.type !== undefined && have.type === undefined) have.type = d.type;
    if (d.function.name !== undefined && have.function.name === undefined) have.function.name = d.function.name;
    if (d.function.arguments !== undefined) have.function.arguments = (have.function.arguments ?? '') + d.function.arguments;
  }
  return merged.size === deltas.length ? deltas : [...merged.values()];
}

/** Events → DeltaMessages, with the Kimi-specific naming rules. One instance per request. */
class GenCSession {
  readonly engine: GenCEngine;
  readonly slots: Slot[] = [];
  private deferredContent = '';
  private contentHasNonSpace = false;
  private generatedIds = 0;

  constructor(options: VllmStreamOptions = {}) {
    this.engine = new GenCEngine(options.decodeToken ?? (() => undefined));
  }

  toDelta(events: readonly EngineEvent[], finished: boolean): VllmDeltaMessage | null {
    if (!events.length && !this.deferredContent) return null;
    let calls: ToolCallDelta[] = [];
    const parts: string[] = [];
    const carried = this.deferredContent;
    let sawTool = false;
    for (const e of events) {
      switch (e.kind) {
        case 'text':
          // Text after a tool event in the same delta waits, so the tool delta goes first.
          if (sawTool) this.deferredContent += e.value;
          else parts.push(e.value);
          break;
        case 'tool-start':
          sawTool = true;
          while (this.slots.length <= e.tool) this.slots.push({ id: '', name: '', args: '', nameSent: false });
          break;
        case 'tool-name':
          sawTool = true;
          this.slot(e.tool).name += e.value;
          break;
        case 'arg':
          sawTool = true;
          this.argChunk(e, calls);
          break;
        case 'tool-end':
          sawTool = true;
          this.toolEnd(e, calls);
          break;
      }
    }
    if (calls.length > 1) calls = coalesce(calls);
    if (this.deferredContent && (!sawTool || !calls.length)) {
      const now = this.deferredContent.slice(carried.length);
      if (carried) parts.unshift(carried);
      if (now) parts.push(now);
      this.deferredContent = '';
    }
    let content = parts.join('');
    if (!this.contentHasNonSpace && content) {
      if (pyStrip(content)) this.contentHasNonSpace = true;
      else if (this.slots.length) content = '';
      else if (!finished) {
        // Whitespace alone may turn out to precede tool calls: hold it.
        this.deferredContent = content;
        content = '';
      }
    }
    if (!content && !calls.length) return null;
    const out: VllmDeltaMessage = {};
    if (content) out.content = content;
    if (calls.length) out.tool_calls = calls;
    return out;
  }

  private slot(i: number): Slot {
    const s = this.slots[i];
    if (!s) throw new Error(`generation C: no tool slot ${i}`);
    return s;
  }

  /** vLLM makes a random `chatcmpl-tool-<uuid>` here; a counter keeps the profile deterministic. */
  private ensureId(slot: Slot): void {
    if (!slot.id) slot.id = `chatcmpl-tool-${(this.generatedIds++).toString(16).padStart(32, '0')}`;
  }

  private nameFromArgs(slot: Slot): string | null {
    const m = NAME_IN_ARGS.exec(slot.args);
    return m && m[1] ? m[1] : null;
  }

  /** Announce the call if its header reads as `name:digit`; a failed header clears the name. */
  private announce(index: number, calls: ToolCallDelta[], header: string | null): void {
    const slot = this.slot(index);
    const parsed = header === null ? null : idAndName(header);
    if (!parsed || !parsed.name) {
      slot.name = '';
      return;
    }
    slot.id = parsed.id;
    slot.name = parsed.name;
    slot.nameSent = true;
    this.ensureId(slot);
    calls.push({ index, id: slot.id, type: 'function', function: { name: parsed.name } });
  }

  /**
   * An argument run (the engine's event for the characters of a delta): read whole where the call is announced, or
   * is by its header at the first character — the characters' chunks then merge into one in the delta anyway —,
   * else character by character, as a name found in the arguments is looked for after each.
   */
  private argChunk(e: EngineEvent, calls: ToolCallDelta[]): void {
    const slot = this.slot(e.tool);
    if (slot.nameSent || (slot.name && idAndName(slot.name)?.name)) this.argPiece(e.tool, e.value, calls);
    else for (const piece of argPieces(e)) this.argPiece(e.tool, piece, calls);
  }

  private argPiece(tool: number, value: string, calls: ToolCallDelta[]): void {
    const slot = this.slot(tool);
    const sentBefore = slot.nameSent;
    if (value) slot.args += value;
    if (!slot.nameSent) {
      if (slot.name) this.announce(tool, calls, slot.name);
      else if (value) this.announce(tool, calls, this.nameFromArgs(slot));
    } else if (value) {
      calls.push({ index: tool, function: { arguments: value } });
    }
    // The chunk that completed the announcement goes out with it.
    if (value && !sentBefore && slot.nameSent) calls.push({ index: tool, function: { arguments: value } });
  }

  private toolEnd(e: EngineEvent, calls: ToolCallDelta[]): void {
    const slot = this.slots[e.tool];
    if (!slot || slot.nameSent) return;
    const parsed = idAndName(slot.name);
    if (parsed?.name) {
      slot.id = parsed.id;
      slot.name = parsed.name;
    }
    // A header that never parsed is used as it stands (or a name found in the arguments).
    const name = slot.name || this.nameFromArgs(slot) || '';
    if (!name) return;
    slot.name = name;
    slot.nameSent = true;
    this.ensureId(slot);
    calls.push({ index: e.tool, id: slot.id, type: 'function', function: { name, arguments: '' } });
  }

  extraction(...deltas: Array<VllmDeltaMessage | null>): VllmExtraction {
    const content = deltas.map((d) => d?.content ?? '').join('');
    const tool_calls: VllmExtraction['tool_calls'] = [];
    for (const slot of this.slots) {
      if (!slot.name && !slot.args) continue;
      let name = pyStrip(slot.name);
      let args: string;
      if (!name && pyStrip(slot.args)) ({ name, args } = nameAndArgsFromJson(slot.args));
      else args = pyStrip(slot.args) || '{}';
      if (!name) continue;
      this.ensureId(slot);
      tool_calls.push({ id: slot.id, name, arguments: args });
    }
    const called = tool_calls.length > 0;
    const shown = called && !pyStrip(content) ? '' : content;
    return { tools_called: called, content: shown || null, tool_calls };
  }
}

class GenCStreamParser implements VllmStreamParser {
  private readonly session: GenCSession;

  constructor(options?: VllmStreamOptions) {
    this.session = new GenCSession(options);
  }

  push(deltaText: string, deltaTokenIds: readonly number[]): VllmDeltaMessage | null {
    return this.session.toDelta(this.session.engine.feed(deltaText, deltaTokenIds), false);
  }

  finish(): VllmDeltaMessage | null {
    return this.session.toDelta(this.session.engine.finish(), true);
  }
}

function extractC(text: string): VllmExtraction {
  // The whole output fed once without token ids, so markers are found in the text here.
  const session = new GenCSession();
  const first = session.toDelta(session.engine.feed(text, []), false);
  const last = session.toDelta(session.engine.finish(), true);
  return session.extraction(first, last);
}

export const vllmGenC: VllmProfile = {
  generation: 'C',
  commit: 'b8fb56d',
  description: 'vLLM Jul 2026 (current): declarative parser engine, markers recognised by token id',
  reasoningParser: {
    endsAtSection: true,
    source: 'KimiK2ReasoningParser (vLLM PR 33646, Feb 2026): ends at </think> or <|tool_calls_section_begin|>',
  },
  hasFinish: true,
  createStreamParser: (options) => new GenCStreamParser(options),
  extract: extractC,
};
