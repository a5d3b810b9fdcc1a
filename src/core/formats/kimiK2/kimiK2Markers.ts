/** The markup of Kimi K2 completions, by role. Spellings from Moonshot's tool-call guide and the chat templates. */
import type { MarkerDef } from '../kernel/markupParser.ts';
import type { SectionedMarkerName } from '../kernel/sectionedCallParser.ts';

export const SECTION_BEGIN = '<|tool_calls_section_begin|>';
export const SECTION_END = '<|tool_calls_section_end|>';
/** Singular spellings some models emit; not single tokens in the vocabulary. */
export const SECTION_BEGIN_SINGULAR = '<|tool_call_section_begin|>';
export const SECTION_END_SINGULAR = '<|tool_call_section_end|>';
export const CALL_BEGIN = '<|tool_call_begin|>';
export const ARGUMENT_BEGIN = '<|tool_call_argument_begin|>';
export const CALL_END = '<|tool_call_end|>';
export const THINK_BEGIN = '<think>';
export const THINK_END = '</think>';
export const IM_END = '<|im_end|>';

/** A Kimi marker, by the role it plays in the sectioned-call family. */
export type KimiMarker = MarkerDef<SectionedMarkerName>;

/** Longest first is not needed (no marker is a prefix of another), but keep a stable order for tests. */
export const KIMI_MARKERS: readonly KimiMarker[] = [
  { text: SECTION_BEGIN, name: 'section-begin' },
  { text: SECTION_BEGIN_SINGULAR, name: 'section-begin' },
  { text: SECTION_END, name: 'section-end' },
  { text: SECTION_END_SINGULAR, name: 'section-end' },
  { text: CALL_BEGIN, name: 'call-begin' },
  { text: ARGUMENT_BEGIN, name: 'argument-begin' },
  { text: CALL_END, name: 'call-end' },
  { text: THINK_BEGIN, name: 'think-begin' },
  { text: THINK_END, name: 'think-end' },
  { text: IM_END, name: 'end-of-turn' },
];

/** The five tool-call markers (both section spellings): what must never reach a client as content. */
export const KIMI_TOOL_MARKER_TEXTS: readonly string[] = KIMI_MARKERS.filter(
  (m) => m.name !== 'think-begin' && m.name !== 'think-end' && m.name !== 'end-of-turn',
).map((m) => m.text);

/** The id form Moonshot documents: `functions.{name}:{index}`. */
export const CANONICAL_CALL_ID = /^functions\.([^\s:]+(?::[^\s:]+)*):(\d+)$/u;

/**
 * Name from an id: drop only the `functions.` prefix and the `:index` suffix, so dotted names survive
 * (vLLM's older parsers kept only the last dotted segment).
 */
export function nameFromCallId(id: string): string {
  let name = id.startsWith('functions.') ? id.slice('functions.'.length) : id;
  const colon = name.lastIndexOf(':');
  if (colon >= 0 && /^\d+$/u.test(name.slice(colon + 1))) name = name.slice(0, colon);
  return name;
}

/** The `:index` of an id, or null when it has none. */
export function indexFromCallId(id: string): number | null {
  const m = /:(\d+)$/u.exec(id);
  return m ? Number(m[1]) : null;
}
