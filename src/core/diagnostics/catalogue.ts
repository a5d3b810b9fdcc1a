/** Every check, in the order their findings are listed. */
import type { Check } from './context.ts';
import { argumentsMismatch } from './checks/argumentsMismatch.ts';
import { badCallId } from './checks/badCallId.ts';
import { callInReasoning } from './checks/callInReasoning.ts';
import { callInThink } from './checks/callInThink.ts';
import { contentLeak } from './checks/contentLeak.ts';
import { droppedCall } from './checks/droppedCall.ts';
import { duplicateCallIndex } from './checks/duplicateCallIndex.ts';
import { emptyContentDelta } from './checks/emptyContentDelta.ts';
import { finishReasonMismatch } from './checks/finishReasonMismatch.ts';
import { invalidArgumentsJson } from './checks/invalidArgumentsJson.ts';
import { markerSplit } from './checks/markerSplit.ts';
import { markerWhitespace } from './checks/markerWhitespace.ts';
import { missingSectionMarker } from './checks/missingSectionMarker.ts';
import { rawFallbackFormat } from './checks/rawFallbackFormat.ts';
import { schemaViolation } from './checks/schemaViolation.ts';
import { strayMarker } from './checks/strayMarker.ts';
import { streamError } from './checks/streamError.ts';
import { textInSection } from './checks/textInSection.ts';
import { toolCallWhenNone } from './checks/toolCallWhenNone.ts';
import { toolDescribedNotCalled } from './checks/toolDescribedNotCalled.ts';
import { unknownTool } from './checks/unknownTool.ts';
import { unterminatedCall } from './checks/unterminatedCall.ts';
import { unknownMarkupInContent } from './checks/unknownMarkupInContent.ts';
import { leakedCalls } from './checks/leakedCalls.ts';
import { recordTooLarge } from './checks/recordTooLarge.ts';
import { recordedTokensInvalid } from './checks/recordedTokensInvalid.ts';
import { tokensTextMismatch } from './checks/tokensTextMismatch.ts';
import { templateBadHistoryId, templateEmptyContentList, templateGenerationPromptMissing } from './checks/templateChecks.ts';

export const CHECKS: readonly Check[] = [
  contentLeak,
  unknownMarkupInContent,
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
  templateGenerationPromptMissing,
  templateEmptyContentList,
  templateBadHistoryId,
  streamError,
  recordTooLarge,
  recordedTokensInvalid,
  tokensTextMismatch,
];
