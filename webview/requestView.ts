/**
 * The request (messages and tools, each collapsible) and the recorded response of a record, and the record's
 * raw JSON one click away. Messages and tools are <details> (not vscode-collapsible, whose heading is set in
 * capitals: tool names and roles must show as written).
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ChatMessage, ChatTool } from '../src/shared/record.ts';
import type { RecordView } from '../src/shared/protocol.ts';
import { clip, formatBytes, h, type Child, replace } from './dom.ts';
import { diagnosticItem, jsonBlock } from './inspector.ts';

const FIRST_CHARS = 20000;

type Diagnostic = RecordView['diagnostics'][number];
type DiagnosticWhere = Diagnostic['where'];

/** Long text shows its start, with a button for the rest. */
export function longText(text: string, cls = 'text-block'): HTMLElement {
  const pre = h('pre', { class: cls }, text.length > FIRST_CHARS ? text.slice(0, FIRST_CHARS) : text);
  if (text.length <= FIRST_CHARS) return pre;
  const more = h('button', { type: 'button', class: 'link show-all' }, `Show all ${formatBytes(text.length)}`);
  more.addEventListener('click', () => {
    replace(pre, text);
    more.remove();
  });
  return h('div', { class: 'long-text' }, pre, more);
}

/**
 * Response text with the findings anchored in it (`where` naming that text) marked, and the findings listed under
 * it: the reader sees leaked markup or calls left in the reasoning where they are. Overlapping spans keep the first.
 */
function findingsText(text: string, diagnostics: readonly Diagnostic[], where: DiagnosticWhere, cls: string): Child[] {
  const anchored = diagnostics
    // vllm-divergence says `response` about a profile's answer, its positions in the completion: not this text.
    .filter(
      (d) => d.where === where && d.kind !== 'vllm-divergence' && d.charStart !== null && d.charEnd !== null && d.charStart <= text.length,
    )
    .sort((a, b) => (a.charStart as number) - (b.charStart as number));
  if (!anchored.length || text.length > FIRST_CHARS * 5) return [longText(text, cls)];
  const pieces: Child[] = [];
  let at = 0;
  for (const d of anchored) {
    const start = d.charStart as number;
    const end = Math.min(text.length, Math.max(start, d.charEnd as number));
    if (start < at) continue;
    pieces.push(
      text.slice(at, start),
      h('mark', { class: `finding sev-${d.severity}`, title: `${d.code} ${d.message}` }, text.slice(start, end)),
    );
    at = end;
  }
  pieces.push(text.slice(at));
  return [
    h('pre', { class: cls }, pieces),
    h(
      'ul',
      { class: 'diag-list response-findings' },
      anchored.map((d) => diagnosticItem(d, null)),
    ),
  ];
}

function contentText(content: ChatMessage['content']): string | null {
  if (content === undefined || content === null) return null;
  if (typeof content === 'string') return content;
  return JSON.stringify(content, null, 2);
}

function preview(s: string | null, max = 80): string {
  if (!s) return '';
  return clip(s.replace(/\s+/g, ' ').trim(), max);
}

function messageItem(m: ChatMessage, i: number, open: boolean): HTMLElement {
  const content = contentText(m.content);
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  const role = typeof m.role === 'string' ? m.role : '?';
  const extra: string[] = [];
  if (typeof m.name === 'string') extra.push(m.name);
  if (typeof m.tool_call_id === 'string') extra.push(`→ ${m.tool_call_id}`);
  if (calls.length) extra.push(`${calls.length} tool call${calls.length === 1 ? '' : 's'}`);
  const body: Child[] = [];
  if (content !== null) body.push(longText(content, 'text-block msg-content'));
  else if (!calls.length) body.push(h('p', { class: 'muted' }, 'No content.'));
  if (typeof m.reasoning_content === 'string' && m.reasoning_content)
    body.push(h('h4', null, 'reasoning_content'), longText(m.reasoning_content, 'text-block reasoning'));
  for (const c of calls) {
    body.push(
      h(
        'div',
        { class: 'msg-call' },
        h(
          'div',
          { class: 'acc-head' },
          h('span', { class: 'acc-name' }, clip(String(c.function?.name ?? ''), 200)),
          h('span', { class: 'acc-id muted' }, clip(String(c.id ?? ''), 200)),
        ),
        jsonBlock(String(c.function?.arguments ?? '')),
      ),
    );
  }
  const details = h(
    'details',
    { class: `message role-${/^[a-z]+$/.test(role) ? role : 'other'}` },
    h(
      'summary',
      null,
      h('span', { class: 'msg-index' }, `${i + 1}.`),
      h('span', { class: 'msg-role' }, clip(role, 40)),
      extra.length ? h('span', { class: 'msg-extra' }, clip(extra.join(', '), 120)) : null,
      h('span', { class: 'msg-preview' }, preview(content)),
    ),
    h('div', { class: 'section-body' }, body),
  );
  details.open = open;
  return details;
}

function toolItem(t: ChatTool): HTMLElement {
  const f = t.function ?? { name: '?' };
  return h(
    'details',
    { class: 'tool' },
    h(
      'summary',
      null,
      h('span', { class: 'tool-name' }, clip(String(f.name), 120)),
      h('span', { class: 'msg-preview' }, preview(f.description ?? null, 100)),
    ),
    h(
      'div',
      { class: 'section-body' },
      f.description ? h('p', { class: 'tool-desc' }, clip(f.description, 8000)) : null,
      f.parameters ? jsonBlock(JSON.stringify(f.parameters)) : h('p', { class: 'muted' }, 'No parameter schema.'),
    ),
  );
}

export function rawButton(onRaw: () => void): HTMLElement {
  const b = h(
    'vscode-button',
    { secondary: true, class: 'raw-button', title: 'Show the record as JSON (credentials redacted)' },
    'Raw JSON',
  );
  b.addEventListener('click', onRaw);
  return b;
}

export function requestView(view: RecordView): HTMLElement {
  const req = view.request;
  if (!req) return h('div', { class: 'doc-view request-view' }, h('p', { class: 'muted' }, 'No request was recorded for this record.'));
  const choice =
    req.toolChoice === null
      ? 'auto (default)'
      : typeof req.toolChoice === 'string'
        ? req.toolChoice
        : `function ${req.toolChoice.function?.name ?? '?'}`;
  const n = req.messages.length;
  return h(
    'div',
    { class: 'doc-view request-view' },
    h(
      'dl',
      { class: 'kv summary' },
      h('dt', null, 'model'),
      h('dd', null, clip(req.model ?? '—', 200)),
      h('dt', null, 'tool_choice'),
      h('dd', null, clip(choice, 200)),
    ),
    h('h3', null, `Messages (${n})`),
    n ? req.messages.map((m, i) => messageItem(m, i, i >= n - 2)) : h('p', { class: 'muted' }, 'No messages.'),
    h('h3', null, `Tools (${req.tools.length})`),
    req.tools.length ? req.tools.map((t) => toolItem(t)) : h('p', { class: 'muted' }, 'No tools offered.'),
    promptItem(view.prompt),
  );
}

/** The prompt the model saw: recorded, or the request rendered with a chat template (which one is said). */
function promptItem(prompt: RecordView['prompt']): HTMLElement | null {
  if (!prompt) return null;
  const where = prompt.origin === 'recorded' ? 'as recorded' : `rendered with ${prompt.template ?? 'a chat template'}`;
  const body: Child[] = [];
  if (prompt.error) body.push(h('p', { class: 'error-banner' }, 'The template failed: ', clip(prompt.error, 2000)));
  if (prompt.text !== null) body.push(longText(prompt.text, 'text-block prompt-text'));
  return h(
    'div',
    { class: 'prompt-section' },
    h('h3', null, 'Prompt'),
    h(
      'details',
      { class: 'prompt' },
      h(
        'summary',
        null,
        h('span', { class: 'msg-role' }, prompt.origin === 'recorded' ? 'recorded prompt' : 'rendered prompt'),
        h('span', { class: 'msg-preview' }, `${where}${prompt.text !== null ? ` · ${formatBytes(prompt.text.length)}` : ''}`),
      ),
      h('div', { class: 'section-body' }, body),
    ),
  );
}

export function responseView(view: RecordView): HTMLElement {
  const r = view.response;
  const parts: Child[] = [];
  if (view.failed) parts.push(h('p', { class: 'error-banner' }, 'The request failed: ', clip(view.failed, 2000)));
  if (!r) {
    parts.push(h('p', { class: 'muted' }, 'No response was recorded for this record.'));
    return h('div', { class: 'doc-view response-view' }, parts);
  }
  parts.push(
    h(
      'dl',
      { class: 'kv summary' },
      h('dt', null, 'finish_reason'),
      h('dd', null, r.finishReason ?? '—'),
      h('dt', null, 'delivery'),
      h('dd', null, r.streamed ? `streamed in ${r.chunks} chunk${r.chunks === 1 ? '' : 's'}` : 'one chat.completion'),
    ),
    h('h3', null, 'Content'),
    ...(r.content === null ? [h('p', { class: 'muted' }, 'null')] : findingsText(r.content, view.diagnostics, 'response', 'text-block')),
  );
  if (r.reasoning !== null)
    parts.push(h('h3', null, 'Reasoning'), ...findingsText(r.reasoning, view.diagnostics, 'reasoning', 'text-block reasoning'));
  parts.push(h('h3', null, `Tool calls (${r.calls.length})`));
  if (!r.calls.length) parts.push(h('p', { class: 'muted' }, 'None.'));
  r.calls.forEach((c, i) =>
    parts.push(
      h(
        'div',
        { class: 'msg-call' },
        h(
          'div',
          { class: 'acc-head' },
          h('span', { class: 'acc-index' }, `#${i}`),
          h('span', { class: 'acc-name' }, clip(c.name, 200)),
          h('span', { class: 'acc-id muted' }, clip(c.id, 200)),
        ),
        jsonBlock(c.arguments),
      ),
    ),
  );
  return h('div', { class: 'doc-view response-view' }, parts);
}
