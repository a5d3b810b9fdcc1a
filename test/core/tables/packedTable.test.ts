/**
 * The finding tables' rows as they cross threads (findingTables.ts): packed column by column, each distinct string
 * once and numbers and string indexes in typed arrays that move to the receiving thread; unpacked, they are the rows
 * given, nulls included, from any row to any row.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import {
  FINDING_COLUMNS,
  packChunk,
  packTable,
  transferList,
  unpackInto,
  type Cell,
  type Columns,
  type PackedTable,
} from '../../../src/core/tables/findingTables.ts';

/** Findings of three records: kinds, files and messages repeat, some cells are null. */
function findings(): Columns {
  const out: Columns = Object.fromEntries(FINDING_COLUMNS.map((c) => [c.name, []]));
  for (let i = 0; i < 12; i++) {
    for (const c of FINDING_COLUMNS) {
      const v: Cell =
        c.type === 'INT32' ? (c.nullable && i % 3 === 0 ? null : i * 7 - 20) : c.nullable && i % 4 === 1 ? null : `${c.name}-${i % 3}`;
      out[c.name]?.push(v);
    }
  }
  return out;
}

const unpack = (table: PackedTable, column: number, from = 0, to = table.rows) => {
  const out: Cell[] = new Array(to - from);
  unpackInto(table.columns[column] as PackedTable['columns'][number], from, to, out, 0);
  return out;
};

test('a packed table unpacks to its rows, any range of them, with each distinct string kept once', () => {
  const rows = findings();
  const table = packTable(FINDING_COLUMNS, rows);
  assert.equal(table.rows, 12);
  FINDING_COLUMNS.forEach((c, i) => {
    assert.deepEqual(unpack(table, i), rows[c.name], c.name);
    assert.deepEqual(unpack(table, i, 5, 9), rows[c.name]?.slice(5, 9), `${c.name} rows 5-9`);
    const column = table.columns[i];
    if (column && 'strings' in column) assert.deepEqual(column.strings, [...new Set(rows[c.name]?.filter((v) => v !== null))], c.name);
  });
});

test('a chunk moves to another thread: its typed arrays are transferred, not copied, and arrive whole', () => {
  const rows = findings();
  const chunk = packChunk({}, rows);
  const { port1, port2 } = new MessageChannel();
  const buffers = transferList(chunk);
  assert.equal(buffers.length, FINDING_COLUMNS.length + chunk.records.columns.length);
  port1.postMessage(chunk, buffers);
  const got = receiveMessageOnPort(port2)?.message as typeof chunk;
  port1.close();
  // Moved: the sender's buffers are empty now.
  assert.ok(buffers.every((b) => b.byteLength === 0));
  assert.equal(got.records.rows, 0);
  FINDING_COLUMNS.forEach((c, i) => assert.deepEqual(unpack(got.findings, i), rows[c.name], c.name));
});
