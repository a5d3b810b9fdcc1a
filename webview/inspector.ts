/**
 * The inspector: what the parser and the client saw at the cursor (state, the delta sent at this token, the
 * calls accumulated so far), the current call's schema errors and tool definition, the diagnostics at the
 * cursor, and the recorded response next to Toolscope's reference parse.
 */
import './inspector.css';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import type { ParserDelta } from '../src/shared/parserDelta.ts';
import { tokenSpanText } from '../src/shared/tokenNumbers.ts';
import type { CallView, ClientChunkView, MessageView, RecordView, TokenView } from '../src/shared/protocol.ts';
import { clip, h, replace, type Child } from './dom.ts';
import {
  accumulatedCalls,
  callAt,
  compareArguments,
  diagnosticsAt,
  hasCallDelta,
  hasDelta,
  indicesWhere,
  isMarker,
  nextAfter,
  type AnchoredDiagnostic,
} from './navigation.ts';
import { diagnosticItem, jsonBlock, MAX_SHOWN, severityIcon, visibleText } from './widgets.ts';

export interface InspectorOptions {
  sections: Record<string, boolean>;
  onSectionToggle(name: string, open: boolean): void;
  onJump(token: number, diagnosticIndex: number | null): void;
}

function deltaView(delta: ParserDelta): HTMLElement {
  const items: Child[] = [];
  if (delta.content !== undefined) items.push(h('dt', null, 'content'), h('dd', null, visibleText(delta.content)));
  if (delta.reasoning_content !== undefined) items.push(h('dt', null, 'reasoning'), h('dd', null, visibleText(delta.reasoning_content)));
  for (const tc of delta.tool_calls ?? []) {
    items.push(
      h('dt', null, `tool call ${tc.index}`),
      h(
        'dd',
        null,
        h(
          'dl',
          { class: 'kv' },
          tc.id !== undefined ? [h('dt', null, 'id'), h('dd', null, visibleText(tc.id))] : null,
          tc.function.name !== undefined ? [h('dt', null, 'name'), h('dd', null, visibleText(tc.function.name))] : null,
          tc.function.arguments !== undefined ? [h('dt', null, 'arguments'), h('dd', null, visibleText(tc.function.arguments))] : null,
        ),
      ),
    );
  }
  return h('dl', { class: 'kv delta' }, items);
}

/**
 * vscode-collapsible draws its description at 60 % opacity, below WCAG AA contrast in light and high-contrast
 * themes: its own shadow styles get the theme's description colour instead (CSSOM, allowed by the CSP).
 */
let descriptionSheet: CSSStyleSheet | null = null;
function readableDescription(el: HTMLElement): void {
  const root = el.shadowRoot;
  if (!root) return;
  if (!descriptionSheet) {
    descriptionSheet = new CSSStyleSheet();
    descriptionSheet.replaceSync('.title .description { opacity: 1; color: var(--vscode-descriptionForeground); }');
  }
  if (!root.adoptedStyleSheets.includes(descriptionSheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, descriptionSheet];
}

function toolDefinition(call: CallView, view: RecordView): HTMLElement {
  if (!call.tool) {
    const offered = (view.request?.tools ?? []).map((t) => t.function?.name).filter(Boolean);
    return h(
      'div',
      { class: 'tool-def missing' },
      h('p', { class: 'warn' }, `The request offers no tool named “${clip(call.name, 200)}”.`),
      h('p', { class: 'muted' }, offered.length ? `Offered: ${clip(offered.join(', '), 1000)}` : 'The request offers no tools.'),
    );
  }
  const f = call.tool.function;
  return h(
    'div',
    { class: 'tool-def' },
    h('div', { class: 'tool-name' }, clip(f.name, 200)),
    f.description ? h('p', { class: 'tool-desc' }, clip(f.description, 4000)) : null,
    f.parameters ? jsonBlock(JSON.stringify(f.parameters)) : h('p', { class: 'muted' }, 'No parameter schema.'),
  );
}

function schemaErrors(call: CallView): HTMLElement {
  if (call.schemaErrors.length === 0) return h('p', { class: 'muted ok' }, 'No schema errors.');
  return h(
    'ul',
    { class: 'schema-errors' },
    call.schemaErrors.map((e) =>
      h(
        'li',
        { class: `sev-${e.severity}` },
        severityIcon(e.severity),
        h('span', { class: 'path' }, `${clip(e.path, 200)} →`),
        h('span', null, clip(e.message, 1000)),
      ),
    ),
  );
}

interface CompareRow {
  field: string;
  response: string | null;
  reference: string | null;
  json: boolean;
  /** A call id the server made up for a format whose model writes none: nothing to compare it with. */
  serverId?: boolean;
}

function compareRows(response: MessageView, reference: MessageView, writesCallIds: boolean): CompareRow[] {
  const rows: CompareRow[] = [
    { field: 'content', response: response.content, reference: reference.content, json: false },
    { field: 'reasoning', response: response.reasoning, reference: reference.reasoning, json: false },
  ];
  const n = Math.max(response.calls.length, reference.calls.length);
  for (let i = 0; i < n; i++) {
    const a = response.calls[i];
    const b = reference.calls[i];
    rows.push(
      {
        field: `call ${i} id`,
        response: a?.id ?? null,
        reference: b?.id ?? null,
        json: false,
        serverId: !writesCallIds && a !== undefined && b !== undefined && b.id === '',
      },
      { field: `call ${i} name`, response: a?.name ?? null, reference: b?.name ?? null, json: false },
      { field: `call ${i} arguments`, response: a?.arguments ?? null, reference: b?.arguments ?? null, json: true },
    );
  }
  return rows;
}

function cell(value: string | null, json: boolean): HTMLElement {
  if (value === null) return h('td', { class: 'absent' }, '—');
  if (value === '') return h('td', { class: 'absent' }, '(empty)');
  return h('td', null, json ? jsonBlock(value, MAX_SHOWN) : visibleText(value));
}

export function comparison(view: RecordView): HTMLElement {
  const response = view.response;
  if (!response) return h('p', { class: 'muted' }, 'No response was recorded: only the reference parse is available.');
  const rows = compareRows(response, view.reference, view.writesCallIds);
  let differing = 0;
  const body = rows.map((r) => {
    if (r.serverId) {
      return h(
        'tr',
        { class: 'server-id' },
        h('th', { scope: 'row' }, r.field, h('div', { class: 'muted small' }, 'made by the server')),
        cell(r.response, false),
        h('td', { class: 'absent', title: `The model writes no call ids in ${view.format}: the server invents them.` }, '(none written)'),
      );
    }
    let state: 'same' | 'same-json' | 'different';
    if (r.response === r.reference) state = 'same';
    else if (r.json && r.response !== null && r.reference !== null) state = compareArguments(r.response, r.reference);
    else state = 'different';
    if (state === 'different') differing++;
    return h(
      'tr',
      { class: state === 'different' ? 'diff' : state === 'same-json' ? 'diff-format' : '' },
      h(
        'th',
        { scope: 'row' },
        r.field,
        state === 'same-json' ? h('div', { class: 'muted small' }, 'same JSON, different text') : null,
        state === 'different' ? h('div', { class: 'small diff-label' }, 'differs') : null,
      ),
      cell(r.response, r.json),
      cell(r.reference, r.json),
    );
  });
  return h(
    'div',
    { class: 'compare' },
    h(
      'p',
      { class: differing ? 'warn' : 'muted ok' },
      differing
        ? `${differing} field${differing === 1 ? '' : 's'} differ between what the client received and the reference parse.`
        : 'The client received what the reference parse gives.',
      ` finish_reason: ${response.finishReason ?? '—'} · ${response.streamed ? `streamed, ${response.chunks} chunk${response.chunks === 1 ? '' : 's'}` : 'not streamed'}`,
    ),
    h(
      'table',
      { class: 'compare-table' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'field'),
          h('th', { scope: 'col' }, 'client received'),
          h('th', { scope: 'col' }, 'reference parse'),
        ),
      ),
      h('tbody', null, body),
    ),
  );
}

/** Chunks listed when the stream cannot be placed on the tokens. */
const CHUNKS_LISTED = 200;

function chunkBlock(c: ClientChunkView, i: number, total: number): HTMLElement {
  const where = c.tokenStart !== null && c.tokenEnd !== null ? ` · ${tokenSpanText(c.tokenStart, c.tokenEnd)}` : '';
  const empty =
    Object.keys(c.delta).length === 0 || (c.delta.content === '' && !c.delta.tool_calls && c.delta.reasoning_content === undefined);
  return h(
    'div',
    { class: 'client-chunk' },
    h('div', { class: 'muted small' }, `chunk ${i + 1} of ${total}${where}`),
    empty ? h('p', { class: 'muted' }, 'an empty delta') : deltaView(c.delta),
  );
}

/** What the client had accumulated from the chunks before `upTo` (exclusive), in words. */
function clientTotals(chunks: readonly ClientChunkView[], upTo: number): HTMLElement {
  let content = '';
  const calls = new Map<number, { name: string; id: string; arguments: string }>();
  for (const c of chunks.slice(0, upTo)) {
    content += c.delta.content ?? '';
    for (const tc of c.delta.tool_calls ?? []) {
      const call = calls.get(tc.index) ?? { name: '', id: '', arguments: '' };
      call.name += tc.function.name ?? '';
      call.id ||= tc.id ?? '';
      call.arguments += tc.function.arguments ?? '';
      calls.set(tc.index, call);
    }
  }
  return h(
    'div',
    { class: 'client-totals' },
    h('h4', null, 'The client has so far'),
    h(
      'dl',
      { class: 'kv' },
      h('dt', null, 'content'),
      h(
        'dd',
        null,
        content ? visibleText(content.length > 400 ? content.slice(-400) : content, 400) : h('span', { class: 'muted' }, 'none'),
      ),
      h('dt', null, 'tool calls'),
      h(
        'dd',
        { class: 'client-calls' },
        calls.size
          ? [...calls].map(([index, c]) => h('div', null, `#${index} ${clip(c.name || '(no name)', 200)}`))
          : h('span', null, `0 tool calls`),
      ),
    ),
  );
}

/** The client's voice at the cursor: from the recorded stream, by token where its chunks line up, else per chunk. */
function clientAt(view: RecordView, cursor: number): Child[] {
  if (!view.response) return [h('p', { class: 'muted' }, 'No response was recorded: what the client received is unknown.')];
  const stream = view.clientStream;
  if (!stream)
    return [
      h(
        'p',
        { class: 'muted client-final' },
        'The response was not streamed: the client’s view is the final response only (see “Response vs reference”).',
      ),
    ];
  const total = stream.total;
  if (!stream.aligned) {
    const shown = stream.chunks.slice(0, CHUNKS_LISTED);
    return [
      h(
        'p',
        { class: 'muted client-unaligned' },
        'The recorded chunks do not line up with these tokens (the server sent text that is not in the completion as written): the stream per chunk.',
      ),
      ...shown.map((c, i) => chunkBlock(c, i, total)),
      total > shown.length ? h('p', { class: 'muted' }, `… ${total - shown.length} more chunks`) : null,
      clientTotals(stream.chunks, stream.chunks.length),
    ];
  }
  const last = view.tokens.length - 1;
  const here = stream.chunks.flatMap((c, i) =>
    c.tokenStart !== null &&
    c.tokenEnd !== null &&
    ((c.tokenStart <= cursor && cursor < c.tokenEnd) || (cursor === last && c.tokenStart >= last))
      ? [chunkBlock(c, i, total)]
      : [],
  );
  // Chunks that started at or before the cursor have reached the client (a chunk arrives whole).
  const reached = stream.chunks.findIndex((c) => (c.tokenStart ?? 0) > cursor);
  return [
    here.length ? here : h('p', { class: 'nothing' }, 'nothing: no recorded chunk holds this token'),
    clientTotals(stream.chunks, reached < 0 ? stream.chunks.length : reached),
  ];
}

type SectionEl = HTMLElement & { open: boolean };

export class Inspector {
  readonly el: HTMLElement;
  private readonly sections = new Map<string, { el: SectionEl; body: HTMLElement }>();
  private view: RecordView | null = null;
  /** Tokens whose delta carries tool-call parts, and tokens with any delta (a long record is not rescanned). */
  private callTokens: number[] = [];
  private deltaTokens: number[] = [];

  constructor(private readonly opts: InspectorOptions) {
    this.el = h('aside', { class: 'inspector', 'aria-label': 'Inspector' });
    const add = (name: string, heading: string, open = true) => {
      const body = h('div', { class: 'section-body' });
      const el = h('vscode-collapsible', { heading, class: `section section-${name}`, 'data-section': name }, body) as SectionEl;
      el.open = opts.sections[name] ?? open;
      void customElements.whenDefined('vscode-collapsible').then(() => readableDescription(el));
      el.addEventListener('vsc-collapsible-toggle', () => this.opts.onSectionToggle(name, el.open));
      this.sections.set(name, { el, body });
      this.el.appendChild(el);
    };
    // Three voices that never mix: what the model wrote, what a correct parser sends, what the client received.
    add('cursor', 'The model wrote');
    add('delta', 'A correct parser sends here');
    add('client', 'The client received');
    add('here', 'Diagnostics at the cursor');
    add('calls', 'Tool calls so far (correct parser)');
    add('call', 'Current call');
    add('compare', 'Response vs reference');
    add('all', 'All diagnostics', false);
    this.el.addEventListener('click', (e) => {
      const b = (e.target as Element).closest<HTMLElement>('button[data-token]');
      if (!b) return;
      const diag = b.dataset.diag;
      this.opts.onJump(Number(b.dataset.token), diag === undefined ? null : Number(diag));
    });
    this.setRecord(null);
  }

  private body(name: string): HTMLElement {
    return (this.sections.get(name) as { body: HTMLElement }).body;
  }

  private setDescription(name: string, text: string): void {
    this.sections.get(name)?.el.setAttribute('description', text);
  }

  setRecord(view: RecordView | null): void {
    this.view = view;
    this.callTokens = view ? indicesWhere(view.tokens, hasCallDelta) : [];
    this.deltaTokens = view ? indicesWhere(view.tokens, hasDelta) : [];
    if (!view) {
      for (const name of this.sections.keys()) replace(this.body(name), h('p', { class: 'muted' }, 'No record open.'));
      return;
    }
    replace(this.body('compare'), comparison(view));
    const all = view.diagnostics;
    this.setDescription('all', String(all.length));
    replace(
      this.body('all'),
      all.length
        ? h(
            'ul',
            { class: 'diag-list' },
            all.map((d, i) => diagnosticItem(d, view.tokens.length ? i : null)),
          )
        : h('p', { class: 'muted ok' }, 'No findings.'),
    );
    if (view.tokens.length === 0) {
      const why =
        view.tokenOrigin === 'none' ? 'This record holds no raw completion, so there is no token to inspect.' : 'The completion is empty.';
      replace(this.body('cursor'), h('p', { class: 'muted' }, why));
      for (const name of ['delta', 'client', 'calls', 'here']) {
        replace(this.body(name), h('p', { class: 'muted' }, '—'));
        this.setDescription(name, '');
      }
      this.setDescription('call', view.calls.length ? String(view.calls.length) : '');
      replace(
        this.body('call'),
        view.calls.length
          ? view.calls.map((c) =>
              h(
                'div',
                { class: 'call-block' },
                h('h4', null, `call ${c.index}: ${clip(c.name, 200)}`),
                schemaErrors(c),
                toolDefinition(c, view),
              ),
            )
          : h('p', { class: 'muted' }, 'No tool calls.'),
      );
    }
  }

  setCursor(cursor: number, active: AnchoredDiagnostic | null, anchored: readonly AnchoredDiagnostic[]): void {
    const view = this.view;
    if (!view || view.tokens.length === 0) return;
    const n = view.tokens.length;
    const t = view.tokens[cursor] as TokenView;

    replace(
      this.body('cursor'),
      h(
        'dl',
        { class: 'kv' },
        h('dt', null, 'token'),
        h('dd', { class: 'token-pos' }, `${cursor + 1} / ${n}`),
        h('dt', null, 'text'),
        h('dd', null, visibleText(t.text, 400, `vis role-${t.role}`)),
        h('dt', null, 'role'),
        h('dd', null, t.role + (t.special ? ' (special token)' : '')),
        h('dt', null, 'parser state'),
        h('dd', { class: 'parser-state' }, t.state),
        t.id !== undefined ? [h('dt', null, 'token id'), h('dd', null, String(t.id))] : null,
        t.bytes !== undefined ? [h('dt', null, 'bytes'), h('dd', null, `${t.bytes} (part of a character)`)] : null,
        t.logprob !== undefined
          ? [h('dt', null, 'logprob'), h('dd', null, `${t.logprob.toFixed(4)} (p = ${Math.exp(t.logprob).toFixed(3)})`)]
          : null,
        t.approximate ? [h('dt', null, 'boundary'), h('dd', { class: 'warn' }, 'approximate (no recorded tokens)')] : null,
      ),
    );

    // What the client got for this token.
    const parts: Child[] = [];
    if (t.emitted) parts.push(deltaView(t.emitted));
    else {
      const marker = isMarker(t);
      parts.push(h('p', { class: 'nothing' }, marker ? 'nothing (a correct parser sends no markup)' : 'nothing (held back)'));
      const next = nextAfter(this.deltaTokens, cursor);
      const lead = marker ? 'Its next delta is at ' : 'Held-back text is flushed with a later delta: the next one is at ';
      if (next !== null)
        parts.push(
          h('p', { class: 'muted' }, lead, h('button', { type: 'button', class: 'link', 'data-token': next }, `token ${next + 1}`), '.'),
        );
      else if (view.finalEmitted)
        parts.push(
          h(
            'p',
            { class: 'muted' },
            marker
              ? 'The rest is flushed when the stream ends (see below).'
              : 'Held-back text is flushed when the stream ends (see below).',
          ),
        );
      else if (!marker) parts.push(h('p', { class: 'muted' }, 'Nothing follows: a correct parser never sends this text.'));
    }
    if (cursor === n - 1 && view.finalEmitted) parts.push(h('h4', null, 'Flushed at the end of the stream'), deltaView(view.finalEmitted));
    replace(this.body('delta'), parts);
    replace(this.body('client'), clientAt(view, cursor));

    // Calls as the client has them now.
    const calls = accumulatedCalls(view, cursor, this.callTokens);
    this.setDescription('calls', calls.length ? String(calls.length) : '');
    const current = callAt(view.calls, cursor);
    replace(
      this.body('calls'),
      calls.length
        ? calls.map((c) => {
            const def = view.calls.find((v) => v.index === c.index);
            const done = def ? def.terminated && cursor >= def.tokenEnd - 1 : false;
            return h(
              'div',
              { class: `acc-call${current && current.index === c.index ? ' current' : ''}` },
              h(
                'div',
                { class: 'acc-head' },
                h('span', { class: 'acc-index' }, `#${c.index}`),
                h('span', { class: 'acc-name' }, clip(c.name || '(no name yet)', 200)),
                h('span', { class: 'acc-id muted' }, clip(c.id, 200)),
                h('span', { class: `acc-state ${done ? 'ok' : 'muted'}` }, done ? 'complete' : 'partial'),
              ),
              c.arguments ? jsonBlock(c.arguments) : h('p', { class: 'muted' }, 'no arguments yet'),
            );
          })
        : h('p', { class: 'muted' }, 'A correct parser has sent no tool call yet.'),
    );

    // The call under the cursor.
    if (current) {
      this.setDescription('call', `#${current.index} ${clip(current.name, 60)}`);
      replace(
        this.body('call'),
        h(
          'dl',
          { class: 'kv' },
          h('dt', null, 'id'),
          current.id === '' && !view.writesCallIds
            ? h('dd', { class: 'muted' }, `none: ${view.format} calls carry no id (the server makes one)`)
            : h('dd', null, visibleText(current.id, 400)),
          h('dt', null, 'tokens'),
          h('dd', null, `${current.tokenStart + 1} – ${current.tokenEnd}${current.terminated ? '' : ' (never terminated)'}`),
        ),
        h('h4', null, 'Schema errors'),
        schemaErrors(current),
        h('h4', null, 'Tool definition (from the request)'),
        toolDefinition(current, view),
      );
    } else {
      this.setDescription('call', '');
      replace(this.body('call'), h('p', { class: 'muted' }, 'The cursor is not inside a tool call.'));
    }

    // Diagnostics here.
    const here = diagnosticsAt(anchored, cursor);
    this.setDescription('here', here.length ? String(here.length) : '');
    replace(
      this.body('here'),
      here.length
        ? h(
            'ul',
            { class: 'diag-list' },
            here.map((d) => {
              const item = diagnosticItem(d.diagnostic, null);
              if (active && active.index === d.index) item.classList.add('active');
              return item;
            }),
          )
        : h('p', { class: 'muted' }, 'None at this token.'),
    );
  }
}
