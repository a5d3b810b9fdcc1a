/** DuckDB (a test dependency only) as a reader of the Parquet files `analyze --parquet` writes. */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

export type Row = Record<string, string | number | boolean | null>;

let connection: Promise<DuckDBConnection> | null = null;

/** The rows of `sql`, as JSON values (DuckDB's BIGINT counts come as strings: compare with Number()). */
export async function query(sql: string): Promise<Row[]> {
  connection ??= DuckDBInstance.create(':memory:').then((db) => db.connect());
  const reader = await (await connection).runAndReadAll(sql);
  return reader.getRowObjectsJson() as Row[];
}

/** A path inside a SQL string literal. */
export function sqlPath(path: string): string {
  return `'${path.replaceAll("'", "''")}'`;
}
