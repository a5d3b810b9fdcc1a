/**
 * The reference streaming parser for Kimi K3 completions (`kimi_k3`): the key/value kernel
 * (kernel/keyValueCallParser.ts) with K3's tags. The `tools` channel is the wrapper, each `call` a function whose name
 * is its `tool` attribute, each `argument` a parameter whose key and type are its attributes: a value written
 * `type="string"` is the raw text, any other its JSON when it parses, else the text (vLLM's inverse of the renderer's
 * typing), whatever the schema says. Values keep their exact text: the renderer writes them raw. A
 * `<|open|>json …<|sep|>` block is the whole arguments as written. The think channel is reasoning; the response
 * channel's tags go nowhere, its body is content. The parse's marker list holds the dedicated tokens each tag is made
 * of (`<|open|>`, `<|close|>`, `<|sep|>`), where they act as markup.
 */
import { KeyValueCallParser, type KeyValueRole, type KeyValueSyntax } from '../kernel/keyValueCallParser.ts';
import type { MarkerDef } from '../kernel/markupParser.ts';
import type { MarkerOccurrence, ParseResult, ParserOptions } from '../toolCallFormat.ts';
import {
  ARGUMENT_CLOSE,
  attributes,
  CALL_CLOSE,
  CALL_OPEN,
  KIMI_K3_SCAN_TABLE,
  KIMI_K3_TOKENS,
  RESPONSE_TAGS,
  TOOLS_CLOSE,
  TOOLS_OPEN,
  toolAttribute,
} from './kimiK3Markers.ts';

export const KIMI_K3_SYNTAX: KeyValueSyntax = {
  table: KIMI_K3_SCAN_TABLE,
  tokenMarkers: KIMI_K3_SCAN_TABLE.map((m) => m.text),
  wrapped: true,
  nameEnd: null,
  readName: toolAttribute,
  // The engines read a missing type as string.
  readKey: (header) => {
    const attrs = attributes(header);
    return { key: attrs.get('key') ?? '', type: attrs.get('type') ?? 'string' };
  },
  // vLLM keeps a call with no tool attribute out of tool_calls; Toolscope keeps it, nameless, for the checks to report.
  requireName: false,
  keyEnd: null,
  untypedValues: 'text',
  valueLayout: 'verbatim',
  words: {
    callBegin: TOOLS_OPEN,
    callEnd: TOOLS_CLOSE,
    functionBegin: `${CALL_OPEN} …`,
    functionEnd: CALL_CLOSE,
    parameterBegin: '<|open|>argument …',
    parameterEnd: ARGUMENT_CLOSE,
  },
  label: 'KimiK3Parser',
};

const TOKEN_PATTERN = new RegExp(KIMI_K3_TOKENS.map((t) => t.replace(/[|]/gu, '\\|')).join('|'), 'gu');

/** The dedicated tokens a recorded tag is made of, each at its own span. */
function tokensOf(m: MarkerOccurrence): MarkerOccurrence[] {
  return [...m.text.matchAll(TOKEN_PATTERN)].map((t) => ({
    name: m.name,
    text: t[0],
    span: { start: m.span.start + (t.index ?? 0), end: m.span.start + (t.index ?? 0) + t[0].length },
  }));
}

export class KimiK3Parser extends KeyValueCallParser {
  constructor(options: ParserOptions = {}) {
    super(KIMI_K3_SYNTAX, options);
  }

  /** The response channel's tags are markup between messages' parts, never inside reasoning or a call. */
  protected override recognised(m: MarkerDef<KeyValueRole>): boolean {
    if (RESPONSE_TAGS.has(m.text)) return this.st === 'content';
    return super.recognised(m);
  }

  override result(): ParseResult {
    const r = super.result();
    return { ...r, markers: r.markers.flatMap(tokensOf) };
  }
}

/** The one-shot form: the same parser fed the whole text. */
export function parseKimiK3(text: string, options: ParserOptions = {}): ParseResult {
  const parser = new KimiK3Parser(options);
  parser.push(text);
  parser.finish();
  return parser.result();
}
