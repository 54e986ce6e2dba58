import type { Compilable } from 'kysely';
import type { DbOrTx } from './create-db.js';
import { directAccessInTurn, directAccessNow } from './direct-sqlite.js';

/**
 * Runs a select and answers its rows as arrays of their columns, in the order of its select
 * list. For long results read on the request path: better-sqlite3 builds an object per row one
 * property at a time, which cost about 40 % of reading a page of 200 statement lines; an array per
 * row does not (bench/README.md). On SQLite the statement runs on the connection directly: at
 * once when it is free, else once it is the statement's turn (direct-sqlite.ts); otherwise
 * (PostgreSQL) through Kysely, whose row objects keep the select list's order.
 */
export async function selectArrays(db: DbOrTx, query: Compilable<unknown>): Promise<unknown[][]> {
  const compiled = query.compile();
  const direct = directAccessNow(db);
  if (direct !== undefined) return direct.selectArrays(compiled.sql, compiled.parameters);
  const inTurn = directAccessInTurn(db, (sqlite) => sqlite.selectArrays(compiled.sql, compiled.parameters));
  if (inTurn !== undefined) return inTurn;
  const result = await db.executeQuery(compiled);
  return result.rows.map((row): unknown[] => Object.values(row as Record<string, unknown>));
}
