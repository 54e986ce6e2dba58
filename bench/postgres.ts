/**
 * A fresh PostgreSQL database for the server of scenario (j) (docs/design.md §9: signed initiation
 * on PostgreSQL at half the SQLite figure or more), created on the server at BENCH_POSTGRES_URL and
 * dropped afterwards, so the server migrates an empty database exactly as it does a new SQLite file.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchDatabase {
  /** The new database's URL (the server's DATABASE_URL). */
  readonly url: string;
  drop(): Promise<void>;
}

/** Whether PostgreSQL answers at `url`. */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createBenchDatabase(url: string): Promise<BenchDatabase> {
  const name = `xs2a_bench_${randomBytes(6).toString('hex')}`;
  await onServer(url, (client) => client.query(`create database ${name}`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    // WITH (FORCE): a server killed mid-run may leave connections behind.
    drop: () => onServer(url, (client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
