/**
 * Inspect AI logs (`.json`, and `.eval`: a zip of `header.json` and `samples/*.json`): every model event that kept
 * its raw exchange (`call.request`, `call.response` — the OpenAI-compatible body Inspect sent and the completion
 * it got) becomes a record, so a verifier's published logs open like any trace. Inspect stores long strings once,
 * as `attachment://<hash>` into the sample's `attachments`: they are resolved before the record is built. A model
 * event without a raw exchange, or one that is not chat-completions shaped, becomes a numbered error instead.
 * "Line" numbers are the model events' ordinals in the log (a log is one JSON document, not lines).
 */
import { readFile } from 'node:fs/promises';
import type * as Fflate from 'fflate';
import type { ChatCompletion, ChatRequest, LineError, LoadedRecord, TraceRecord } from '../../core/trace/record.ts';
import { chatCompletionProblem, isChatCompletionShape } from '../../core/trace/importers/chatCompletionImporter.ts';
import { messagesProblem } from '../../core/trace/importers/chatRequestImporter.ts';
import { isObject, type UnknownObject } from '../../core/trace/importers/jsonGuards.ts';
import { deeperThan, MAX_JSON_DEPTH } from '../../core/util/jsonDepth.ts';

export interface InspectLogRead {
  records: LoadedRecord[];
  errors: LineError[];
}

/** A parsed JSON document that looks like an Inspect log (`eval` spec plus `samples` or `version`). */
export function isInspectLog(value: unknown): value is UnknownObject {
  return (
    isObject(value) &&
    isObject(value.eval) &&
    ('samples' in value || 'version' in value) &&
    typeof (value.eval as UnknownObject).task === 'string'
  );
}

const ATTACHMENT = 'attachment://';

/** Replaces attachment references by their text, anywhere in a JSON value (bounded by the value's size). */
function resolveAttachments(value: unknown, attachments: UnknownObject): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(ATTACHMENT)) return value;
    const text = attachments[value.slice(ATTACHMENT.length)];
    return typeof text === 'string' ? text : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (isObject(value)) {
    const out: UnknownObject = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveAttachments(v, attachments);
    return out;
  }
  return value;
}

/** The records of one Inspect sample; `ordinal` numbers model events across the whole log. */
function sampleRecords(sample: UnknownObject, ordinal: { n: number }, out: InspectLogRead): void {
  const attachments = isObject(sample.attachments) ? sample.attachments : {};
  const events = Array.isArray(sample.events) ? sample.events : [];
  let call = 0;
  for (const event of events) {
    if (!isObject(event) || event.event !== 'model') continue;
    const line = ++ordinal.n;
    call++;
    const where = `sample ${String(sample.id)} epoch ${String(sample.epoch ?? 1)}, model call ${call}`;
    try {
      modelEventRecord(event, attachments, sample, call, line, where, out);
    } catch (err) {
      // A value no check foresaw costs this model call, never the log.
      out.errors.push({
        line,
        message: `Inspect log: ${where} could not be imported (${err instanceof Error ? err.message : String(err)})`,
      });
    }
  }
}

function modelEventRecord(
  event: UnknownObject,
  attachments: UnknownObject,
  sample: UnknownObject,
  call: number,
  line: number,
  where: string,
  out: InspectLogRead,
): void {
  const raw = isObject(event.call) ? event.call : null;
  if (!raw || !isObject(raw.request)) {
    out.errors.push({ line, message: `Inspect log: ${where} kept no raw request (call.request)` });
    return;
  }
  // The exchange is walked recursively below (attachments, the analysis): one nested deeper than any real
  // request is refused before it is walked.
  if (deeperThan(raw)) {
    out.errors.push({ line, message: `Inspect log: ${where}: the raw exchange nests deeper than ${MAX_JSON_DEPTH} levels` });
    return;
  }
  const request = resolveAttachments(raw.request, attachments) as UnknownObject;
  if (!Array.isArray(request.messages)) {
    out.errors.push({ line, message: `Inspect log: ${where}: the raw request has no "messages" (not a chat-completions call)` });
    return;
  }
  const problem = messagesProblem(request.messages, 'call.request.messages');
  if (problem !== null) {
    out.errors.push({ line, message: `Inspect log: ${where}: ${problem}` });
    return;
  }
  // Inspect writes `tools: null` when none were offered; a chat request has no tools then.
  if (request.tools === null) delete request.tools;
  if (request.tool_choice === null) delete request.tool_choice;
  const record: TraceRecord = {
    toolscope: 1,
    id: `${String(sample.id)}/${String(sample.epoch ?? 1)}/${call}`,
    request: request as unknown as ChatRequest,
    meta: {
      source: 'inspect',
      model: typeof event.model === 'string' ? event.model : undefined,
      endpoint: '/v1/chat/completions',
      ...(typeof event.timestamp === 'string' ? { created: event.timestamp } : {}),
    },
  };
  const response = resolveAttachments(raw.response, attachments);
  if (isObject(response) && isChatCompletionShape(response)) {
    const bad = chatCompletionProblem(response);
    if (bad !== null) {
      out.errors.push({ line, message: `Inspect log: ${where}: response: ${bad}` });
      return;
    }
    record.response = response as unknown as ChatCompletion;
  } else if (typeof event.error === 'string') {
    record.error = event.error;
  } else if (response !== undefined && response !== null) {
    record.error = `Inspect log: the raw response is not a chat completion: ${JSON.stringify(response).slice(0, 200)}`;
  }
  out.records.push({ record, line, lastLine: line, source: 'inspect-log' });
}

/** Records of a parsed `.json` Inspect log. */
export function importInspectLog(log: UnknownObject): InspectLogRead {
  const out: InspectLogRead = { records: [], errors: [] };
  const ordinal = { n: 0 };
  for (const sample of Array.isArray(log.samples) ? log.samples : []) if (isObject(sample)) sampleRecords(sample, ordinal, out);
  return out;
}

/**
 * The most a `.eval` sample entry may hold uncompressed (like replay's `--max-answer`): a small archive can declare
 * entries of hundreds of MB, and each is held as bytes, text and a parsed value while it is read.
 */
export const MAX_EVAL_ENTRY_BYTES = 64 * 1024 * 1024;

/**
 * Records of a `.eval` Inspect log (a zip): its `samples/*.json` in name order, one entry at a time; an entry that
 * cannot be read (another compression method, corrupt data, over `maxEntryBytes` uncompressed, not JSON) is an
 * error of its own and the others still load. A broken archive (no central directory) is one error.
 * fflate comes from the caller: it builds its tables when loaded (~6 ms), so it is loaded for a `.eval` file only.
 */
export function importInspectEvalZip(
  bytes: Uint8Array,
  { unzipSync, strFromU8 }: typeof Fflate,
  maxEntryBytes: number = MAX_EVAL_ENTRY_BYTES,
): InspectLogRead {
  const out: InspectLogRead = { records: [], errors: [] };
  const samples: Array<{ name: string; compression: number; originalSize: number }> = [];
  try {
    // Lists the entries only: each is inflated on its own below, so one bad entry is one error.
    unzipSync(bytes, {
      filter: (f) => {
        if (f.name.startsWith('samples/') && f.name.endsWith('.json'))
          samples.push({ name: f.name, compression: f.compression, originalSize: f.originalSize });
        return false;
      },
    });
  } catch (err) {
    out.errors.push({ line: 1, message: `Inspect .eval log: not a readable zip (${(err as Error).message})` });
    return out;
  }
  const ordinal = { n: 0 };
  for (const { name, compression, originalSize } of samples.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const entryError = (reason: string): void => {
      // An unreadable entry counts as one model call, so the ordinals after it stay distinct.
      out.errors.push({ line: ++ordinal.n, message: `Inspect .eval log: ${name} ${reason}` });
    };
    if (compression !== 0 && compression !== 8) {
      entryError(`uses compression method ${compression}${compression === 12 ? ' (bzip2)' : ''}; only stored and deflate entries are read`);
      continue;
    }
    // The declared size bounds the inflation too: fflate inflates into a buffer of exactly that size.
    if (originalSize > maxEntryBytes) {
      entryError(`holds ${originalSize} bytes uncompressed, more than the ${maxEntryBytes} read from one entry`);
      continue;
    }
    let sample: unknown;
    try {
      const entry = unzipSync(bytes, { filter: (f) => f.name === name })[name];
      sample = JSON.parse(strFromU8(entry ?? new Uint8Array()));
    } catch (err) {
      entryError(`cannot be read (${(err as Error).message})`);
      continue;
    }
    if (isObject(sample)) sampleRecords(sample, ordinal, out);
  }
  return out;
}

/** Whether a file may be an Inspect log, by its name (`.eval`, `.json`); any other file is read by lines. */
export function mayBeInspectLog(path: string): boolean {
  const lower = path.toLowerCase();
  return lower.endsWith('.eval') || lower.endsWith('.json');
}

/**
 * A `.eval` file, or a `.json` file holding an Inspect log, read whole; null for anything else (read line by line
 * as usual). Inspect logs are one document, so they are not indexed by byte offset.
 */
export async function readInspectLogFile(path: string): Promise<InspectLogRead | null> {
  if (!mayBeInspectLog(path)) return null;
  if (path.toLowerCase().endsWith('.eval')) return importInspectEvalZip(new Uint8Array(await readFile(path)), await import('fflate'));
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
  return isInspectLog(value) ? importInspectLog(value) : null;
}
