/**
 * The contract every tool-call format (Kimi K2 now; Hermes, Qwen3-Coder, … later) implements.
 * A parser is streaming first: fed text deltas, it returns OpenAI-style deltas. The one-shot form is the same
 * parser fed the whole text, so "streaming equals non-streaming" is a property of the design, checked by tests.
 */
import type { PieceSplitter, Token, Tokenizer } from '../tokens/token.ts';
import type { SpecialTokens } from '../tokens/specialTokens.ts';
import type { ChatTool, ToolChoice } from '../trace/record.ts';
import type { StructuralTag, XmlArgumentStyle } from './structuralTag/structuralTagFormat.ts';
import type { EngineServerParser, VllmGeneration, VllmRun, VllmRunInput } from './engineRun.ts';
import type { ParserDelta } from '../../shared/parserDelta.ts';
import type { ParserState } from '../../shared/parserState.ts';
import type { FormatCallWriter } from './callWriter.ts';

export type { ParserDelta, ToolCallDelta } from '../../shared/parserDelta.ts';
export type { ParserState } from '../../shared/parserState.ts';

export interface CharRange {
  /** Inclusive start offset in the parsed text (UTF-16 code units). */
  start: number;
  /** Exclusive end offset. */
  end: number;
}

export interface ParsedCall {
  index: number;
  /** The id as the model wrote it, trimmed. */
  id: string;
  /** The tool name derived from the id (format-specific rule). */
  name: string;
  /** Raw argument text, trimmed of surrounding whitespace. */
  arguments: string;
  /** From the call's opening marker to its closing marker (or the end of text when unterminated). */
  span: CharRange;
  idSpan: CharRange;
  argumentsSpan: CharRange | null;
  terminated: boolean;
  /** `markup`: special-token markup; `raw-fallback`: recovered from `functions.name:0 {json}` text. */
  source: 'markup' | 'raw-fallback';
}

/** A marker seen in the text, with its canonical name (e.g. `tool_calls_section_begin`). */
export interface MarkerOccurrence {
  name: string;
  text: string;
  span: CharRange;
}

/**
 * Structural observations the parser makes while parsing; diagnostics turn them into findings.
 * Kinds are format-level facts, not verdicts.
 */
export type StructureNoteKind =
  | 'whitespace'
  | 'missing-section-begin'
  | 'missing-section-end'
  | 'call-in-think'
  /** A tool-call section began inside an unclosed think block and ended the reasoning (detail `unclosed`, or `closed-later` when a `</think>` followed the section). */
  | 'think-ended-by-section'
  | 'raw-fallback'
  | 'unterminated-call'
  /**
   * A call that runs to the end of the completion in a format whose call terminator is a stop token servers strip
   * (Harmony's `<|call|>`): complete unless the completion was cut (`finish_reason: "length"`).
   */
  | 'call-at-end'
  | 'unterminated-section'
  | 'unterminated-think'
  | 'text-in-section'
  | 'stray-marker';

export interface StructureNote {
  kind: StructureNoteKind;
  span: CharRange;
  detail: string;
}

export interface ParseResult {
  content: string | null;
  reasoning: string | null;
  calls: ParsedCall[];
  markers: MarkerOccurrence[];
  notes: StructureNote[];
  /** Where content came from in the parsed text, in order. */
  contentSpans: CharRange[];
}

export interface StreamingParser {
  /** Feed the next piece of text; returns what the client would receive now, or null for nothing. */
  push(text: string): ParserDelta | null;
  /** End of stream: flush anything held back. */
  finish(): ParserDelta | null;
  /** The parser's state after the last push. */
  readonly state: ParserState;
  /** Everything parsed so far (complete after finish()). */
  result(): ParseResult;
}

/** How a format names its calls in the model's own text (Kimi: `functions.name:idx`). */
export interface CallIdRules {
  /** What is wrong with an id the model wrote, or null when it is well formed. */
  problem(id: string): string | null;
  /** The tool the id names; null where ids name no tool (Mistral's 9 characters). */
  nameOf(id: string): string | null;
  indexOf(id: string): number | null;
  /** Why it matters, for the fix hint. */
  hint: string;
  /** The form in words, for messages about ids of the request's history (`functions.name:index`). */
  form: string;
  /** What to do about such ids in the history, for the fix hint. */
  historyHint: string;
  /**
   * False where an id of this form says little about the format (any server's random id may be 9 letters and digits):
   * then it is not evidence of the format for a record with nothing else to go on.
   */
  evidence?: boolean;
}

export interface ParserOptions {
  /** The completion starts inside a reasoning block (the template put `<think>` in the prompt). */
  startInReasoning?: boolean;
  /** Recover `functions.name:0 {json}` written without special tokens as a tool call. */
  recoverRawFallback?: boolean;
  /** The request's tools, for formats whose values are typed by the schema (Qwen3-Coder). */
  tools?: ReadonlyArray<{ function: { name: string; parameters?: unknown } }>;
}

/**
 * How a format's models split text into tokens, and what Toolscope can do with the files a user has
 * (formats/tokenizerChoice.ts tries them in order: built in, then the user's tiktoken.model, tokenizer.json or GGUF).
 */
export interface FormatTokenizer {
  /** Toolscope's approximate splitter: the format's markers as single tokens, the rest pre-tokenizer pieces. */
  approximate(): Tokenizer;
  /** The model's own tokenizer when Toolscope ships it (gpt-oss: o200k_harmony), built on first use. */
  builtin?(): Tokenizer;
  /** The pre-tokenizer of this format's models' `tiktoken.model` (the file holds ranks, not the pattern). */
  tiktoken?: PieceSplitter;
  /**
   * GGUF `tokenizer.ggml.pre` names of this format's models and the pre-tokenizer each stands for: GGUF names its
   * pre-tokenizer but does not hold the pattern.
   */
  gguf?: Readonly<Record<string, PieceSplitter>>;
  /**
   * The special tokens of the models' vocabulary with their ids, from a public source named beside them: a record
   * of this format has its recorded tokens recognised as special by them alone (formats/recordedSpecialTokens.ts);
   * without a table none is.
   */
  specialTokens?: SpecialTokens;
}

/** Options of a format's structural tag. */
export interface GuidedTagOptions {
  /** One of the format's `shapes` (the first when absent). */
  shape?: string;
  /** The model reasons first (xgrammar's `reasoning=True`): the tag lets a think block through before the calls. */
  reasoning?: boolean;
}

/**
 * How a format's call reads between its call begin and its arguments (Kimi K2's call id `functions.NAME:IDX`), for
 * the what-if's words at a refused character and for reading which tool a call tag of the format's structural tag
 * is for. Formats without one get words read from their tags alone (guided/callTagHint.ts).
 */
export interface CallHeaderReading {
  /** What begins a call. */
  readonly callBegin: string;
  /** What ends the header and begins the arguments. */
  readonly argumentsBegin: string;
  /** What ends a call. */
  readonly callEnd: string;
  /** The tool a written header names (whitespace around it ignored). */
  toolOf(header: string): string;
  /** The tool a call tag is for, read from the tag's begin; undefined for a tag that is no call of this format. */
  toolOfTag(begin: string): string | undefined;
  /**
   * What the grammar wants next where a header is written up to `header` and refused, in words, or undefined when
   * there is nothing to say; `tools` names the tag's tools in words (`get_weather`, `one of get_weather, search`).
   */
  hint(header: string, tools: string): string | undefined;
}

/**
 * Call markup made of special tokens of the model's vocabulary (Kimi K2's): the grammars are compiled against a
 * vocabulary holding them as single tokens (guided/byteVocabulary.ts), and constrained decoding walks a completion
 * token by token with these markers (guided/constrainedDecoding.ts).
 */
export interface VocabularyMarkup {
  /** The special tokens of the model's vocabulary, as text. */
  readonly specialTokens: readonly string[];
  /** Those that end the model's turn: the grammar's stop tokens, the first the one an output's end is checked with. */
  readonly stopTokens: readonly string[];
  /** What opens the calls. */
  readonly sectionBegin: string;
  /** What closes them. */
  readonly sectionEnd: string;
  /** How each call inside reads. */
  readonly call: CallHeaderReading;
}

/**
 * The structural tag the serving engines send for this format under strict tool calling (vLLM
 * `structured_outputs.structural_tag`, SGLang): the same shape as xgrammar's built-in tag of `builtinStyle`.
 * Guided decoding (the what-if, guided replay, the embedded endpoint's constrained answers) is built on it.
 */
export interface FormatGuidedGrammar {
  /**
   * The `model=` of xgrammar's `get_builtin_structural_tag` this tag mirrors (`kimi`, `qwen_3_coder`, `glm_4_7`…);
   * absent for a tag an engine builds itself (`tagName` says which).
   */
  readonly builtinStyle?: string;
  /** The tag in words where it is no xgrammar built-in (SGLang's `mistral` structural tag). */
  readonly tagName?: string;
  /**
   * How a call is written through this grammar where the tag's spelling is not the one `callWriter` writes (SGLang's
   * Mistral tag allows only the pre-v11 list): guided decoding writes the model's calls again with it.
   */
  readonly callWriter?: FormatCallWriter;
  /**
   * The XML argument style the format's tag writes arguments in (Qwen3-Coder's `qwen_xml`), declared here so guided
   * decoding can lower it for web-xgrammar by its name; absent for JSON arguments.
   */
  readonly argumentStyle?: XmlArgumentStyle;
  /** The shapes the format offers, the default first (Kimi K2: `xgrammar-kimi`, `pr36891`). */
  readonly shapes: readonly string[];
  /**
   * The shape a completion's own markup belongs to, for a format whose model generations write different markup with a
   * tag each (DeepSeek DSML: V3.2's `function_calls`, V4's `tool_calls`): the what-if compiles that one. Undefined (or
   * absent): the default shape.
   */
  shapeOf?(text: string): string | undefined;
  /**
   * Where the model ends its turn in this format's text when the record keeps it (Llama: `<|eot_id|>`, `<|eom_id|>`):
   * the engine stops there, so the what-if feeds nothing from there on to the grammar.
   */
  readonly stops?: readonly string[];
  /**
   * The format's reasoning is a message the tag itself describes (Harmony's analysis channel), not a block the
   * engine's reasoning parser strips first: the what-if compiles the tag with `reasoning` and feeds the completion
   * from its start.
   */
  readonly reasoningInTag?: boolean;
  /**
   * End-of-turn tokens servers strip from the text they return (Harmony's `<|return|>`, `<|call|>`), in the order to
   * try: a completion that ends without one may end where one of them would have been.
   */
  readonly strippedEnds?: readonly string[];
  /** How a call's header reads, for the what-if's words where a header is refused (Kimi K2's call ids). */
  readonly callHeader?: CallHeaderReading;
  /**
   * The tag constrains names and layout but leaves argument values free text (vLLM's Hy3 tag), in words: guided
   * decoding lets any value through, so a schema error in a value is never the grammar's to fix.
   */
  readonly freeValues?: string;
  /**
   * The format's call markup is special tokens of the vocabulary grammars are compiled against: constrained decoding
   * walks a completion token by token. Other formats' completions are read back into calls by their parser and
   * written again through the grammar call by call (guided/constrainedCalls.ts).
   */
  readonly markupInVocabulary?: VocabularyMarkup;
  /** Throws StructuralTagError (structuralTag/toolChoice.ts) where xgrammar raises for the same request. */
  structuralTag(
    tools: readonly ChatTool[] | undefined,
    toolChoice: ToolChoice | undefined | null,
    options?: GuidedTagOptions,
  ): StructuralTag;
}

/** The chat template Toolscope renders a request with when the record has no prompt and the user gave none. */
export interface FormatChatTemplate {
  /** Where the template comes from, in words (shown beside a rendered prompt). */
  readonly label: string;
  /** Jinja source, rendered with @huggingface/jinja as transformers' apply_chat_template does. */
  readonly source: string;
  /** A user's own template (`--template`) may stand in for it: the template checks know this format's prompt shape. */
  readonly userTemplates: boolean;
}

/** Replays of a serving engine's own parser generations over this format's completions (`--vllm-profile`). */
export interface FormatEngineProfiles {
  /** The generations replayed, oldest first (`--vllm-profile`, `toolscope.vllmProfile`). */
  readonly generations: readonly VllmGeneration[];
  run(input: VllmRunInput): VllmRun;
  /** The generation's parser as a server runs it over the tokens of `text` (`serve --vllm-profile`). */
  serverParser(generation: VllmGeneration, tokens: ReadonlyArray<Token & { id: number }>, text: string): EngineServerParser;
}

/**
 * How the format's tool-call markup reads when it leaks into a client's content: the one leak rule
 * (diagnostics/leakAttribution.ts) attributes a leaked span to the format whose whole markers and body match it, by
 * these declarations read through the registry. Every whole marker in `leakFragments` that is neither an opener nor a
 * closer (Kimi's `<|tool_call_argument_begin|>`, Harmony's `<|message|>`) counts as an inner marker; the other
 * `leakFragments` are pieces (a split marker's remains, body tags like Qwen3-Coder's `<function=`).
 */
export interface LeakSignature {
  /** Whole markers that open a call or a section of calls: leaked with nothing after them, an `opener-only` fragment. */
  readonly openers: readonly string[];
  /** Whole markers that close one: leaked with nothing before them, a `closer-only` fragment. */
  readonly closers: readonly string[];
  /**
   * How the text after the opener reads in this format, for markers another format shares (Hermes and Qwen3-Coder
   * both write `<tool_call>`): a span whose body does not read so, and that no parser reads a call from, is not this
   * format's (MiniMax's `<tool_call><invoke …>` is neither). Absent: the markers alone decide.
   */
  readonly body?: RegExp;
}

/** Calls written with no markup at all, by how they are written (docs/diagnostics.md, "Calls written without markup"). */
export type UnmarkedCallShape = 'call-colon' | 'pythonic' | 'invoke-xml';

export interface ToolCallFormat {
  readonly name: string;
  readonly displayName: string;
  /** How a call looks, in one line (the `toolscope.format` setting's description of the value: scripts/syncManifest.ts). */
  readonly markupSketch: string;
  /** Every marker string of the format (for tokenisation, highlighting and leak detection). */
  readonly markers: readonly string[];
  /** Strings only this format's tool-call markup produces: found in a client's content, they are a leak. */
  readonly leakFragments: readonly string[];
  /**
   * Other spellings of the format's tool-call markers that decoders produce, each with the marker it stands for
   * (Kimi K2 GGUF builds decode the markers by id as `<|reserved_token_163595|>` …): leak detection finds them too.
   */
  readonly markerSpellings?: ReadonlyArray<{ readonly spelling: string; readonly marker: string }>;
  /** Openers, closers and body of the format's markup, for attributing a leak in content to it (LeakSignature). */
  readonly leakSignature: LeakSignature;
  /**
   * The model's own call is a bare JSON object `{"name", "parameters"}` (Llama-style): in content it is a leaked
   * call. Otherwise a bare JSON call naming an offered tool in content is a call written without the markup
   * (raw-fallback-format).
   */
  readonly nativeBareJson?: boolean;
  /**
   * The shape the format's calls take once their markers are stripped (Gemma: `call-colon`, the pythonic family:
   * `pythonic`, MiniMax: `invoke-xml`): a content leak of that shape names the format (diagnostics/unmarkedCalls.ts).
   */
  readonly unmarkedShape?: UnmarkedCallShape;
  /** The format's call-id convention; absent when the model writes no ids (the server invents them). */
  readonly callIds?: CallIdRules;
  /** Calls written as plain text without the markup, in a piece of content. */
  findRawFallback?(content: string): Array<{ id: string; start: number; end: number }>;
  /** True when the text carries this format's markup. */
  detect(text: string): boolean;
  /**
   * Model names that write this format (`moonshotai/Kimi-K2-Instruct`, `openai/gpt-oss-120b`…): the evidence used
   * when a record has no markup to detect the format from (a response without a raw completion).
   */
  readonly models?: RegExp;
  /**
   * What the serving engines do with this format's tool-call markup inside reasoning, in a sentence each, for the
   * findings' messages (sources in docs/formats/): `callInThink` for markup that stays reasoning, `sectionEndsThink`
   * for a section that ended the reasoning (Kimi K2).
   */
  readonly engineNotes?: {
    readonly callInThink?: string;
    readonly sectionEndsThink?: string;
    readonly closedLater?: string;
  };
  /** The names vLLM's and SGLang's `--tool-call-parser` give this format, as a record's `meta.parser` may carry them. */
  readonly parserNames?: readonly string[];
  /** Where this format's token boundaries and ids come from when the record has none. */
  readonly tokenizer: FormatTokenizer;
  /** Guided decoding for this format; absent when Toolscope has no structural tag for it. */
  readonly guided?: FormatGuidedGrammar;
  /**
   * Why the format has no `guided`: no serving engine applies a grammar to it (the sources looked in, named). The
   * what-if says so once per record rather than inventing a grammar.
   */
  readonly noEngineGrammar?: string;
  /** The format's default chat template; absent when Toolscope renders no prompts for it. */
  readonly chatTemplate?: FormatChatTemplate;
  /** vLLM parser generations replayed over the completion; absent when Toolscope has none for this format. */
  readonly engineProfiles?: FormatEngineProfiles;
  /** How the format's model writes calls (the simulated model's answers, guided corrections). */
  readonly callWriter: FormatCallWriter;
  createParser(options?: ParserOptions): StreamingParser;
}
