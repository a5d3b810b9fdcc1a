/**
 * A reader that stops early (`toolscope analyze DIR | head`) closes the pipe under standard output; the next write
 * fails with EPIPE, which Node raises as an unhandled 'error' and a stack trace. What the reader wanted was written,
 * so the run ends there, quietly and with status 0, as ripgrep does; other stream errors stay errors.
 */
export function endQuietlyOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    process.exit(0);
  });
}
