/** A webview panel for the trace editor provider under a fake `vscode`: keeps what the host posts, sends requests. */
import type { Envelope, HostEvent, HostReply, TraceInfo, WebviewRequest } from '../../src/shared/protocol.ts';

export function fakePanel() {
  const posted: Envelope[] = [];
  let receive: ((m: unknown) => unknown) | null = null;
  let nextId = 1;
  const panel = {
    webview: {
      options: {},
      html: '',
      cspSource: 'vscode-resource:',
      asWebviewUri: (u: unknown) => u,
      postMessage: (m: Envelope) => {
        posted.push(m);
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
    /** Everything posted to the webview so far, replies and events, in order. */
    posted: () => [...posted],
    /** Sends a request as the webview does and waits for its reply. */
    async request(body: WebviewRequest): Promise<HostReply> {
      const id = nextId++;
      receive?.({ kind: 'request', id, body });
      for (let i = 0; i < 1000; i++) {
        const reply = posted.find((m) => m.kind === 'reply' && m.id === id);
        if (reply?.kind === 'reply') return reply.body;
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
