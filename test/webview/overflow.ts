/** What sticks out of a panel: elements whose right edge passes the panel's, or that scroll sideways themselves. */
import type { Page } from 'playwright-core';

// Browser code as a string: the root tsconfig has no DOM types.
const FIND = `(panel) => {
  const root = document.querySelector(panel);
  const edge = root.getBoundingClientRect().right + 1;
  const out = [];
  if (root.scrollWidth > root.clientWidth + 1) out.push(panel + ' scrolls sideways');
  for (const el of root.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const name = el.tagName.toLowerCase() + '.' + [...el.classList].join('.');
    if (r.right > edge) out.push(name + ' ends at ' + Math.round(r.right) + ' past ' + Math.round(edge));
    else if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && el.clientWidth > 0)
      out.push(name + ' scrolls sideways (' + el.scrollWidth + ' > ' + el.clientWidth + ')');
  }
  return out.slice(0, 10);
}`;

export async function overflowing(page: Page, panel: string): Promise<string[]> {
  return (await page.evaluate(`(${FIND})(${JSON.stringify(panel)})`)) as string[];
}
