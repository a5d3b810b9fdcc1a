import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countWork } from './workCounter.ts';

/** A buffer scanned from the start on every push: the quadratic mistake the linear-time checks exist for. */
function rescanning(text: string): void {
  let buffer = '';
  for (let i = 0; i < text.length; i += 3) {
    buffer += text.slice(i, i + 3);
    buffer.indexOf('<never>');
  }
}

/** The same scan from where the last one stopped: linear. */
function resuming(text: string): void {
  let buffer = '';
  let scanned = 0;
  for (let i = 0; i < text.length; i += 3) {
    buffer += text.slice(i, i + 3);
    buffer.indexOf('<never>', Math.max(0, scanned - 6));
    scanned = buffer.length;
  }
}

test('countWork: a rescanning loop does ~16x the work for 4x the input, a resuming one ~4x', () => {
  const unit = 'some text < with > brackets ';
  const ratio = (f: (t: string) => void) => countWork(() => f(unit.repeat(400))) / countWork(() => f(unit.repeat(100)));
  assert.ok(ratio(rescanning) > 12, `rescanning: ${ratio(rescanning)}`);
  assert.ok(ratio(resuming) < 5, `resuming: ${ratio(resuming)}`);
});

test('countWork: regex scans count from lastIndex for sticky and global expressions, and patches are undone', () => {
  const text = 'x'.repeat(1000);
  const sticky = /y/y;
  sticky.lastIndex = 990;
  const fromEnd = countWork(() => sticky.exec(text));
  assert.ok(fromEnd < 20, `sticky from 990: ${fromEnd}`);
  assert.ok(countWork(() => /y/.exec(text)) >= 1000);
  const indexOf = String.prototype.indexOf;
  const exec = RegExp.prototype.exec;
  countWork(() => 'abc'.indexOf('c'));
  assert.equal(String.prototype.indexOf, indexOf);
  assert.equal(RegExp.prototype.exec, exec);
});
