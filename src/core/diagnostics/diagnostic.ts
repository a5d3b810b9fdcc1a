/**
 * A finding about a record, anchored to the tokens and characters it is about.
 * Codes are stable and never reused: tools and users filter on them.
 */

export type Severity = 'error' | 'warning' | 'info';

/**
 * Which text `charStart`/`charEnd` index: the raw completion, the response content, the response's reasoning
 * (`reasoning_content` / `reasoning` as the client accumulated it), or the request.
 */
export type DiagnosticWhere = 'completion' | 'response' | 'reasoning' | 'request';

export interface Diagnostic {
  code: string;
  kind: DiagnosticKind;
  severity: Severity;
  message: string;
  hint: string;
  where: DiagnosticWhere;
  /** First token (inclusive) in the completion's tokens; null when not anchored to the completion. */
  tokenStart: number | null;
  /** Token end (exclusive). */
  tokenEnd: number | null;
  charStart: number | null;
  charEnd: number | null;
  /** The tool call it is about (index in the parse it came from), when it is about one. */
  callIndex?: number;
  /** JSON path inside the arguments (schema findings). */
  path?: string;
  /** Which variant of the kind it is, when the kind has several (vllm-divergence: `call-dropped`, `id-changed`…). */
  detail?: string;
}

/** The catalogue: kind → code and default severity. Append only; a retired kind keeps its code. */
export const DIAGNOSTIC_KINDS = {
  'content-leak': { code: 'TS001', severity: 'error', title: 'Tool-call markup or arguments in content' },
  'empty-content-delta': { code: 'TS002', severity: 'warning', title: 'Stream chunk with content ""' },
  'unknown-tool': { code: 'TS003', severity: 'error', title: 'Call to a tool the request did not offer' },
  'invalid-arguments-json': { code: 'TS004', severity: 'error', title: 'Arguments are not a JSON object' },
  'schema-violation': { code: 'TS005', severity: 'error', title: "Arguments break the tool's JSON schema" },
  'bad-call-id': { code: 'TS006', severity: 'warning', title: 'Call id not in functions.name:index form' },
  'duplicate-call-index': { code: 'TS007', severity: 'warning', title: 'Duplicate or out-of-order call index' },
  'missing-section-marker': { code: 'TS008', severity: 'warning', title: 'Calls without a section begin or end' },
  'marker-split': { code: 'TS009', severity: 'warning', title: 'Marker split across tokens' },
  'call-in-think': { code: 'TS010', severity: 'warning', title: 'Tool call inside a think block' },
  'raw-fallback-format': { code: 'TS011', severity: 'error', title: 'Call written without special tokens' },
  'unterminated-call': { code: 'TS012', severity: 'error', title: 'Call never terminated' },
  'marker-whitespace': { code: 'TS013', severity: 'info', title: 'Whitespace around markers' },
  'dropped-call': { code: 'TS014', severity: 'error', title: 'Call in the completion missing from the response' },
  'arguments-mismatch': { code: 'TS015', severity: 'error', title: 'Arguments differ between stream, response and completion' },
  'finish-reason-mismatch': { code: 'TS016', severity: 'warning', title: 'finish_reason does not match the calls' },
  'tool-call-when-none': { code: 'TS017', severity: 'error', title: 'Tool call although tool_choice is "none"' },
  'tool-described-not-called': { code: 'TS018', severity: 'warning', title: 'Tool described but not called' },
  'text-in-section': { code: 'TS019', severity: 'warning', title: 'Text inside the tool-call section' },
  'stray-marker': { code: 'TS020', severity: 'warning', title: 'Marker out of place' },
  'template-generation-prompt-missing': { code: 'TS021', severity: 'error', title: 'Prompt does not end with the generation prompt' },
  'template-empty-content-list': { code: 'TS022', severity: 'warning', title: 'Empty content rendered as a list literal' },
  'template-bad-history-id': { code: 'TS023', severity: 'warning', title: 'Earlier call id not in functions.name:index form' },
  'guided-would-block': { code: 'TS024', severity: 'warning', title: 'Guided decoding would have blocked this token' },
  'guided-accepts': { code: 'TS025', severity: 'info', title: 'Guided decoding lets this completion through' },
  'vllm-divergence': { code: 'TS026', severity: 'warning', title: 'A vLLM generation would have sent something else' },
  'record-too-large': { code: 'TS028', severity: 'warning', title: 'Record above the size limit: parts of the analysis skipped' },
  'recorded-tokens-invalid': { code: 'TS029', severity: 'warning', title: 'Recorded tokens with invalid fields' },
  'tokens-text-mismatch': { code: 'TS030', severity: 'warning', title: 'Recorded token texts do not join to the completion' },
  'stream-error': { code: 'TS031', severity: 'error', title: 'Stream ended with an error event' },
  'guided-unavailable': { code: 'TS027', severity: 'info', title: 'The guided-decoding what-if could not run on this request' },
  'call-in-reasoning': { code: 'TS032', severity: 'error', title: 'Tool call left in the reasoning' },
  'unknown-markup-in-content': { code: 'TS033', severity: 'warning', title: 'Special-token markup of no known format in content' },
} as const satisfies Record<string, { code: string; severity: Severity; title: string }>;

export type DiagnosticKind = keyof typeof DIAGNOSTIC_KINDS;

export const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export function worstSeverity(diagnostics: readonly Diagnostic[]): Severity | null {
  let worst: Severity | null = null;
  for (const d of diagnostics) if (!worst || SEVERITY_RANK[d.severity] > SEVERITY_RANK[worst]) worst = d.severity;
  return worst;
}
