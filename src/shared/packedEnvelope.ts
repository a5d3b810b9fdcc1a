/**
 * The list's messages to the page as bytes: a `summaries` or `guidedFindings` event travels as its JSON in UTF-8
 * (`{ kind: 'packed', bytes }`), which the page decodes (webview/hostConnection.ts). A webview message is otherwise
 * JSON that a browser workbench parses into objects and clones twice more on its way to the page (into the webview's
 * frame and its inner frame), all on the renderer's main thread that the page's frames need; a typed array is carried
 * beside the JSON and handed on as it is (VS Code's webview messages, engines ≥ 1.57). In headless Chromium, a message
 * of 1,000 of the 200 MB trace's rows relayed through two frames cost 35–44 ms of the main thread as objects and
 * 8–22 ms as bytes decoded at the end (load 15). What the page gets is what JSON gave it before: the same rows.
 */
import type { Envelope } from './protocol.ts';

export interface PackedEnvelope {
  kind: 'packed';
  /** An Envelope's JSON, UTF-8. */
  bytes: Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The list's events packed; anything else as it is. */
export function packEnvelope(message: Envelope): Envelope | PackedEnvelope {
  if (message.kind !== 'event' || (message.body.type !== 'summaries' && message.body.type !== 'guidedFindings')) return message;
  // TextEncoder's array owns its buffer (a Node Buffer is a view of a shared pool, and VS Code sends a view's whole buffer).
  return { kind: 'packed', bytes: encoder.encode(JSON.stringify(message)) };
}

/** A packed envelope decoded; any other message as it is. */
export function unpackEnvelope(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || (message as { kind?: unknown }).kind !== 'packed') return message;
  const bytes = (message as { bytes?: unknown }).bytes;
  return bytes instanceof Uint8Array ? (JSON.parse(decoder.decode(bytes)) as unknown) : message;
}
