/**
 * A finding about a record, anchored to the tokens and characters it is about, and the catalogue entry of a kind.
 * Plain types in the protocol layer: the checks, the host and the webview name them, and the registry of kinds is
 * derived from the checks (core/diagnostics/registry.ts), so nothing here may depend on which checks exist. Codes are
 * stable and never reused: tools and users filter on them.
 */

export type Severity = 'error' | 'warning' | 'info';

/**
 * Which text `charStart`/`charEnd` index: the raw completion, the response content, the response's reasoning
 * (`reasoning_content` / `reasoning` as the client accumulated it), or the request.
 */
export type DiagnosticWhere = 'completion' | 'response' | 'reasoning' | 'request';

export interface Diagnostic {
  code: string;
  /** A registered kind (registry.ts); a consumer should skip kinds it does not know. */
  kind: string;
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
  /**
   * The call a finding found written as text (a call with no tool-call markup, content-leak / call-in-reasoning):
   * its name and its arguments as the engine would have sent them, or null with `problems` saying what could not
   * be turned (a nested call, a bare name) — never guessed.
   */
  call?: { name: string; arguments: string | null; problems?: string[] };
}

/** A kind of finding as a check declares it: its code (TSnnn, never reused), default severity and one-line title. */
export interface DiagnosticKindInfo<K extends string = string> {
  readonly kind: K;
  readonly code: string;
  readonly severity: Severity;
  readonly title: string;
}

export const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

export function worstSeverity(diagnostics: readonly Diagnostic[]): Severity | null {
  let worst: Severity | null = null;
  for (const d of diagnostics) if (!worst || SEVERITY_RANK[d.severity] > SEVERITY_RANK[worst]) worst = d.severity;
  return worst;
}
