/**
 * The first key an object of a JSON text holds twice, found without recursion. `JSON.parse` keeps the last of
 * duplicated keys and other readers (first-wins parsers, some databases) the first, so a line with a duplicated key
 * reads differently to each: where a file's integrity is checked, such a line is refused.
 */

/** The first duplicated key with its object's path (`$.a.b`), or null; `text` must be valid JSON. */
export function duplicateKey(text: string): { key: string; path: string } | null {
  // One frame per open object or array: the keys seen so far (objects) and the key or index it sits at.
  const frames: Array<{ keys: Set<string> | null; at: string }> = [];
  let pendingKey: string | null = null;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const frame = frames[frames.length - 1];
      if (expectKey && frame?.keys) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (frame.keys.has(key)) return { key, path: pathOf(frames) };
        frame.keys.add(key);
        pendingKey = key;
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      frames.push({ keys: c === '{' ? new Set() : null, at: pendingKey ?? '' });
      pendingKey = null;
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      frames.pop();
      pendingKey = null;
    } else if (c === ',') {
      pendingKey = null;
      expectKey = frames[frames.length - 1]?.keys != null;
    }
  }
  return null;
}

function pathOf(frames: ReadonlyArray<{ at: string }>): string {
  return frames
    .slice(1)
    .reduce((path, f) => (f.at === '' ? `${path}[]` : `${path}.${/^[A-Za-z_$][\w$]*$/.test(f.at) ? f.at : JSON.stringify(f.at)}`), '$');
}
