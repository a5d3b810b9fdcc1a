/**
 * Mistral's call ids: 9 ASCII letters or digits. vLLM's `MistralToolCall.generate_random_id` writes them and
 * `is_valid_id` checks them (vllm/parser/mistral.py @ 017e9f4448b700e85ee16023287b025693c72b9e), after mistral-common's
 * validator (protocol/instruct/validator.py, the line vLLM cites @ 21ee9f6cee3441e9bb1e6ed2d10173f90bd9b94b); a model
 * writes one after `[CALL_ID]`, and the history's ids are encoded so. The id names no tool and has no index.
 */
import type { CallIdRules } from '../toolCallFormat.ts';

const MISTRAL_CALL_ID = /^[A-Za-z0-9]{9}$/u;

export const mistralCallIds: CallIdRules = {
  problem: (id) => (MISTRAL_CALL_ID.test(id) ? null : `call id "${id}" is not 9 letters or digits`),
  nameOf: () => null,
  indexOf: () => null,
  hint: "Mistral's tokenizer takes only 9-character alphanumeric call ids: mistral-common refuses another id when the conversation is sent back (vLLM keeps only the last 9 characters of a longer one). Give calls ids of 9 letters or digits.",
  form: '9 letters or digits',
  historyHint:
    "mistral-common's validator (and Mistral's chat templates) refuse a history id that is not 9 letters or digits; vLLM keeps the last 9 characters of a longer one. Send back the ids the server gave, or 9-character alphanumeric ones.",
  // Any server's random id may look like one: not evidence of Mistral on its own.
  evidence: false,
};
