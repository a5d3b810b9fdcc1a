/**
 * The registry of checks: every check module's descriptor (check.ts), listed once. The analysis runs them stage by
 * stage — sync, then profile, then async — and within a stage in this order, which is the order their findings are
 * listed in. The catalogue of kinds (codes, default severities, titles) that the docs, the CLI, the Problems panel
 * and the editor show is derived from the descriptors: a kind is declared beside its check and nowhere else.
 */
import type { Check } from './check.ts';
import type { DiagnosticKindInfo } from './diagnostic.ts';
import { argumentsMismatch } from './checks/argumentsMismatch.ts';
import { badCallId } from './checks/badCallId.ts';
import { callInReasoning } from './checks/callInReasoning.ts';
import { callInThink } from './checks/callInThink.ts';
import { contentLeak } from './checks/contentLeak.ts';
import { droppedCall } from './checks/droppedCall.ts';
import { duplicateCallIndex } from './checks/duplicateCallIndex.ts';
import { emptyContentDelta } from './checks/emptyContentDelta.ts';
import { finishReasonMismatch } from './checks/finishReasonMismatch.ts';
import { guidedWhatIf } from './checks/guidedWhatIf.ts';
import { invalidArgumentsJson } from './checks/invalidArgumentsJson.ts';
import { leakedCalls } from './checks/leakedCalls.ts';
import { markerSplit } from './checks/markerSplit.ts';
import { markerWhitespace } from './checks/markerWhitespace.ts';
import { missingSectionMarker } from './checks/missingSectionMarker.ts';
import { rawFallbackFormat } from './checks/rawFallbackFormat.ts';
import { recordTooLarge } from './checks/recordTooLarge.ts';
import { recordedTokensInvalid } from './checks/recordedTokensInvalid.ts';
import { schemaViolation } from './checks/schemaViolation.ts';
import { strayMarker } from './checks/strayMarker.ts';
import { streamError } from './checks/streamError.ts';
import { templateChecks } from './checks/templateChecks.ts';
import { textInSection } from './checks/textInSection.ts';
import { tokensTextMismatch } from './checks/tokensTextMismatch.ts';
import { toolCallWhenNone } from './checks/toolCallWhenNone.ts';
import { toolDescribedNotCalled } from './checks/toolDescribedNotCalled.ts';
import { unknownMarkupInContent } from './checks/unknownMarkupInContent.ts';
import { unknownTool } from './checks/unknownTool.ts';
import { unmarkedCallInText } from './checks/unmarkedCallInText.ts';
import { unterminatedCall } from './checks/unterminatedCall.ts';
import { vllmDivergence } from './checks/vllmDivergence.ts';

export const CHECKS = [
  // sync
  contentLeak,
  unknownMarkupInContent,
  unmarkedCallInText,
  leakedCalls,
  emptyContentDelta,
  unknownTool,
  invalidArgumentsJson,
  schemaViolation,
  badCallId,
  duplicateCallIndex,
  missingSectionMarker,
  markerSplit,
  callInThink,
  callInReasoning,
  rawFallbackFormat,
  unterminatedCall,
  markerWhitespace,
  droppedCall,
  argumentsMismatch,
  finishReasonMismatch,
  toolCallWhenNone,
  toolDescribedNotCalled,
  textInSection,
  strayMarker,
  templateChecks,
  streamError,
  recordTooLarge,
  recordedTokensInvalid,
  tokensTextMismatch,
  // profile
  vllmDivergence,
  // async
  guidedWhatIf,
] as const;

/** Every kind a registered check reports. */
export type DiagnosticKind = (typeof CHECKS)[number]['kinds'][number]['kind'];

/** The registered checks of one stage, in registry order. */
function ofStage<S extends Check['stage']>(stage: S): ReadonlyArray<Extract<Check, { stage: S }>> {
  return (CHECKS as readonly Check[]).filter((c): c is Extract<Check, { stage: S }> => c.stage === stage);
}

export const SYNC_CHECKS = ofStage('sync');
export const PROFILE_CHECKS = ofStage('profile');
export const ASYNC_CHECKS = ofStage('async');

/** The catalogue entry of a kind, or undefined for a name no registered check reports. */
export function diagnosticKindInfo(kind: string): DiagnosticKindInfo<DiagnosticKind> | undefined {
  return Object.hasOwn(DIAGNOSTIC_KINDS, kind) ? DIAGNOSTIC_KINDS[kind as DiagnosticKind] : undefined;
}

/** The catalogue: kind → code, default severity and title, for every registered kind, in the order of their codes. */
export const DIAGNOSTIC_KINDS = Object.fromEntries(
  CHECKS.flatMap((c): readonly DiagnosticKindInfo<DiagnosticKind>[] => c.kinds)
    // Codes are TS + three digits, so code-unit order is their order; localeCompare would first load ICU's
    // collator (5-9 ms of every start-up).
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((info) => [info.kind, info]),
) as Readonly<Record<DiagnosticKind, DiagnosticKindInfo<DiagnosticKind>>>;
