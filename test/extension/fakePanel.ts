/** A webview panel for the trace editor provider under a fake `vscode`: keeps what the host posts, sends requests. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope, HostEvent, HostReply, TraceInfo, WebviewRequest } from '../../src/shared/protocol.ts';
import type { TraceEditorProvider } from '../../src/extension/traceEditorProvider.ts';
import { fake, Uri } from './fakeVscode.ts';
import { unpackEnvelope, type PackedEnvelope } from '../../src/shared/packedEnvelope.ts';

/** The page's script and stylesheet in the extension folder fakeExtensionFolder makes (the page carries them inline). */
export const FAKE_PAGE = { script: '/* the webview bundle of a fake extension */', style: '/* its stylesheet */' };

/**
 * An extension folder for the provider under a fake `vscode`: `dist/webview.js` and `dist/webview.css`, which the
 * trace editor reads once and puts inline in the page, hold FAKE_PAGE (these tests drive the host, not the page).
 */
export function fakeExtensionFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'toolscope-fake-extension-'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'dist', 'webview.js'), FAKE_PAGE.script);
  writeFileSync(join(root, 'dist', 'webview.css'), FAKE_PAGE.style);
  return root;
}

/**
 * `paints`: the page says it painted once the `ready` reply is in (a page does once its first record is drawn, which
 * the host's grammar engines wait for); false: the test sends `painted` itself.
 */
export function fakePanel({ paints = true }: { paints?: boolean } = {}) {
  const posted: Envelope[] = [];
  let receive: ((m: unknown) => unknown) | null = null;
  let nextId = 1;
  let html = '';
  /** Woken when the page is written (the provider writes it once its first rows and record are read). */
  let onWritten: (() => void) | null = null;
  const writtenOnce = new Promise<void>((r) => (onWritten = r));
  const panel = {
    webview: {
      options: {},
      get html(): string {
        return html;
      },
      set html(value: string) {
        html = value;
        onWritten?.();
      },
      cspSource: 'vscode-resource:',
      asWebviewUri: (u: unknown) => u,
      // The page's side decodes what comes packed (webview/hostConnection.ts).
      postMessage: (m: Envelope | PackedEnvelope) => {
        posted.push(unpackEnvelope(m) as Envelope);
        return Promise.resolve(true);
      },
      onDidReceiveMessage: (l: (m: unknown) => unknown) => {
        receive = l;
        return { dispose: () => undefined };
      },
    },
    onDidDispose: () => ({ dispose: () => undefined }),
  };
  const events = () => posted.filter((m): m is Extract<Envelope, { kind: 'event' }> => m.kind === 'event').map((m) => m.body);
  return {
    panel,
    events,
    /** The page's HTML once it is written. */
    async written(): Promise<string> {
      await writtenOnce;
      return html;
    },
    /** Everything posted to the webview so far, replies and events, in order. */
    posted: () => [...posted],
    /** Sends a request as the webview does and waits for its reply. */
    async request(body: WebviewRequest): Promise<HostReply> {
      const id = nextId++;
      receive?.({ kind: 'request', id, body });
      for (let i = 0; i < 1000; i++) {
        const reply = posted.find((m) => m.kind === 'reply' && m.id === id);
        if (reply?.kind === 'reply') {
          if (body.type === 'ready' && paints) receive?.({ kind: 'request', id: nextId++, body: { type: 'painted' } });
          return reply.body;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error(`no reply to ${body.type}`);
    },
    /** Waits for an event, looking at those after `from`. */
    async waitEvent(from: number, pred: (e: HostEvent) => boolean): Promise<number> {
      for (let i = 0; i < 2000; i++) {
        const at = events().findIndex((e, k) => k >= from && pred(e));
        if (at >= 0) return at;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new Error('event never came');
    },
  };
}

/** The list is complete. */
export const done = (info: TraceInfo) => !info.analysing;

/**
 * The trace editor registered on the fake workbench, `file` opened and its editor resolved into a fake panel, as the
 * workbench does when a user opens a trace. `editor` is the provider's module, imported once the fake `vscode` is in
 * place (vscodeHook.ts).
 */
export async function openInTraceEditor(
  editor: { TraceEditorProvider: typeof TraceEditorProvider; TRACE_VIEW_TYPE: string },
  file: string,
  panelOptions?: Parameters<typeof fakePanel>[0],
) {
  const registration = editor.TraceEditorProvider.register({ extensionUri: Uri.file(fakeExtensionFolder()) } as never);
  const provider = fake.providers.get(editor.TRACE_VIEW_TYPE) as TraceEditorProvider;
  const document = await provider.openCustomDocument(Uri.file(file) as never);
  const view = fakePanel(panelOptions);
  await provider.resolveCustomEditor(document, view.panel as never);
  return { registration, provider, document, view };
}
