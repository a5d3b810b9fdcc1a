/**
 * A place `toolscope publish` sends verdicts to, as pure data: which ids it needs (a record without them is skipped and
 * counted, never given made-up ids), the items a record becomes, how many items one request carries, and the request
 * body of a batch. The network client (src/net/publish/) sends what this describes; nothing here knows a key.
 */
import type { PublishRecord } from './verdicts.ts';

export type TargetName = 'langfuse' | 'phoenix' | 'otlp';

/** What every target's payload names itself by, beside the kind: `toolscope.<kind>`. */
export const NAME_PREFIX = 'toolscope.';

export interface PublishTarget<Item = unknown> {
  name: TargetName;
  /** The ids it needs, in words (the summary and docs say why a record was skipped). */
  needs: string;
  /** The record's items, or null when the record lacks the ids this target needs. */
  items(record: PublishRecord): Item[] | null;
  /** Items per request (Langfuse's scores endpoint takes one score a request). */
  batchSize: number;
  /** The request body for a batch of items. */
  body(items: Item[]): unknown;
  /** Of a 2xx answer's body (parsed JSON, or null): how many items the server says it refused, and why. */
  partialRefusal(answer: unknown, sent: number): { refused: number; message: string } | null;
}
