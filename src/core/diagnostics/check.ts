/**
 * What a check module exports: one descriptor naming the kinds it reports (code, default severity, title), the stage
 * it runs in, and its `run`. The registry (registry.ts) lists the descriptors; the catalogue of kinds the docs, the
 * CLI, the Problems panel and the editor show is derived from them, so a kind is declared once, beside its check.
 *
 * Stages, in the order their findings are listed:
 * - `sync`: a pure function of the record's context (CheckContext).
 * - `profile`: runs when an engine profile replayed the completion (`--vllm-profile`), on that run.
 * - `async`: starts as soon as the record's format is known (EarlyRecord) and works while the record is tokenized,
 *   parsed and checked (the guided what-if on the grammar engine's thread); its findings come last.
 */
import type { CheckContext, EarlyRecord, ProfileCheckContext } from './context.ts';
import type { Diagnostic, DiagnosticKindInfo } from './diagnostic.ts';

export interface SyncCheck<K extends string = string> {
  readonly stage: 'sync';
  readonly kinds: readonly DiagnosticKindInfo<K>[];
  run(ctx: CheckContext): Diagnostic[];
}

export interface ProfileCheck<K extends string = string> {
  readonly stage: 'profile';
  readonly kinds: readonly DiagnosticKindInfo<K>[];
  run(ctx: ProfileCheckContext): Diagnostic[];
}

export interface AsyncCheck<K extends string = string> {
  readonly stage: 'async';
  readonly kinds: readonly DiagnosticKindInfo<K>[];
  /** Starts the check's work for a record; null when it does not apply to it. */
  run(early: EarlyRecord): PendingFindings | null;
}

/**
 * An async check under way: its findings, once the record's own analysis is done. `earlier` are the findings listed
 * before it (those of the kinds the user ignores left out).
 */
export type PendingFindings = (ctx: CheckContext, earlier: readonly Diagnostic[]) => Promise<Diagnostic[]>;

export type Check<K extends string = string> = SyncCheck<K> | ProfileCheck<K> | AsyncCheck<K>;

/** A kind's catalogue entry, its name kept as a literal type (the registry derives `DiagnosticKind` from them). */
export function diagnosticKind<const K extends string>(info: DiagnosticKindInfo<K>): DiagnosticKindInfo<K> {
  return info;
}

/** A check's descriptor, typed by its stage (`run`'s argument follows from `stage`) with its kinds' names kept. */
export function defineCheck<C extends Check>(check: C): C {
  return check;
}
