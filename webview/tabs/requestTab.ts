/**
 * The Request tab: the record's request (messages and tools, each collapsible, and the prompt). Messages and tools
 * are <details> (not vscode-collapsible, whose heading is set in capitals: tool names and roles must show as
 * written).
 */
import './requestTab.css';
import type { ChatMessage, ChatTool } from '../../src/shared/record.ts';
import type { RecordView } from '../../src/shared/protocol.ts';
import { clip, formatBytes, h, replace, type Child } from '../dom.ts';
import { jsonBlock, longText } from '../widgets.ts';
import type { TabFactory } from './recordTab.ts';

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

export const requestTab: TabFactory = () => ({
  id: 'request',
  label: 'Request',
  focusablePanel: true,
  shownWhen: () => true,
  render: ({ view }, panel) => replace(panel, view ? requestView(view) : h('p', { class: 'muted' }, 'No record open.')),
  showsFinding: (d) => d.where === 'request',
});
