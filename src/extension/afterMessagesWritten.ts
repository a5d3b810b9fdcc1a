/**
 * Resolves once the messages this extension host queued for the workbench so far have gone out. VS Code's RPC
 * writes what a turn queued on a 0 ms timer (ipc.net.ts, ProtocolWriter), and a remote workbench's socket (code-server,
 * VS Code's remote server) then deflates it on libuv's pool, a write and a flush, each answered on a turn of the event
 * loop, before writing it. Work started before then on this thread holds them back: the trace editor's first rows and
 * record (50–200 ms on the sample) held back the reply to `resolveCustomEditor`, which the workbench waits for before
 * it makes the webview's frame (the extension host's socket written the moment the record was read, in every open
 * measured). A timer after the writer's, then two turns of the loop for the deflate's write and flush.
 */
export function afterMessagesWritten(): Promise<void> {
  return new Promise((resolve) => setTimeout(() => setImmediate(() => setImmediate(resolve)), 0));
}
