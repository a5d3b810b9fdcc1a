/** Entry point of the trace editor webview (dist/webview.js): connect to the host and start the UI. */
import { Shell } from './shell.ts';
import { h, replace } from './dom.ts';
import { showRaw } from './helpOverlay.ts';
import { connect } from './hostConnection.ts';

function fail(root: HTMLElement, err: unknown): void {
  replace(
    root,
    h(
      'div',
      { class: 'fatal', role: 'alert' },
      h('h2', null, 'Toolscope could not start'),
      h('pre', null, err instanceof Error ? err.message : String(err)),
    ),
  );
}

function main(): void {
  const root = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app', class: 'toolscope' }));
  try {
    performance.mark('toolscope:webview-start');
    const connection = connect({ showRaw: (title, json) => void showRaw(title, json) });
    document.body.dataset.host = connection.host;
    // The host is asked for the trace first: it reads the file while the shell builds its page.
    const asked = Shell.askHost(connection);
    const shell = new Shell(root, connection);
    performance.mark('toolscope:shell-built');
    shell.start(asked).catch((err: unknown) => fail(root, err));
  } catch (err) {
    fail(root, err);
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', main, { once: true });
else main();
