/** ANSI styling, on only when writing to a terminal and NO_COLOR is unset (https://no-color.org). */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  blue(s: string): string;
  green(s: string): string;
}

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export function terminalStyle(stream: { isTTY?: boolean }): Style {
  const on = Boolean(stream.isTTY) && !process.env.NO_COLOR;
  const id = (s: string) => s;
  return on
    ? { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), yellow: wrap(33, 39), blue: wrap(34, 39), green: wrap(32, 39) }
    : { bold: id, dim: id, red: id, yellow: id, blue: id, green: id };
}
