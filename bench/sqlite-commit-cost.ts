/**
 * What one SQLite commit costs beside the inserts before it, apart from the server: per
 * transaction, a payment-like row (a table with four indexes, random keys), an authorisation-like
 * row and an audit-like row, in a fresh file database in WAL mode with synchronous=NORMAL, as the
 * server opens it. Each variant adds one setting; the first half of the transactions warm up.
 *
 *   node --import tsx bench/sqlite-commit-cost.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';

const TRANSACTIONS = 20_000;
const BODY = 'x'.repeat(900);

const VARIANTS: readonly { readonly name: string; readonly pragmas: readonly string[] }[] = [
  { name: "SQLite's default: checkpoint every 1 000 pages", pragmas: [] },
  { name: 'no checkpoint in the commit (wal_autocheckpoint=0)', pragmas: ['wal_autocheckpoint = 0'] },
  { name: 'locking_mode=EXCLUSIVE', pragmas: ['locking_mode = EXCLUSIVE'] },
  { name: 'temp_store=MEMORY', pragmas: ['temp_store = MEMORY'] },
];

function measure(pragmas: readonly string[]): { inserts: number; commit: number } {
  const dir = mkdtempSync(join(tmpdir(), 'xs2a-commit-cost-'));
  const db = new SQLite(join(dir, 'cost.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    for (const pragma of pragmas) db.pragma(pragma);
    db.exec(`
      create table p (id text primary key, tpp text, status text, d text, psu text, acct text, key text, body text);
      create index p1 on p (tpp, key); create index p2 on p (status, d); create index p3 on p (psu); create index p4 on p (acct);
      create table a (id text primary key, res text, exp text, st text); create index a1 on a (res); create index a2 on a (exp);
      create table e (id integer primary key, at text, res text, det text); create index e1 on e (res);`);
    const payment = db.prepare('insert into p values (?, ?, ?, ?, ?, ?, ?, ?)');
    const authorisation = db.prepare('insert into a values (?, ?, ?, ?)');
    const audit = db.prepare('insert into e (at, res, det) values (?, ?, ?)');
    const begin = db.prepare('begin immediate');
    const commit = db.prepare('commit');
    let inserts = 0n;
    let commits = 0n;
    for (let i = 0; i < TRANSACTIONS; i++) {
      begin.run();
      const started = process.hrtime.bigint();
      const id = randomUUID();
      const at = new Date().toISOString();
      payment.run(id, `tpp${i % 4}`, 'RCVD', at.slice(0, 10), `psu${i % 100}`, `acct${i % 50}`, randomUUID(), BODY);
      authorisation.run(randomUUID(), id, at, 'received');
      audit.run(at, id, BODY.slice(0, 200));
      const inserted = process.hrtime.bigint();
      commit.run();
      if (i >= TRANSACTIONS / 2) {
        inserts += inserted - started;
        commits += process.hrtime.bigint() - inserted;
      }
    }
    const perTransaction = (ns: bigint) => Number(ns) / (TRANSACTIONS / 2) / 1000;
    return { inserts: perTransaction(inserts), commit: perTransaction(commits) };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log('variant'.padEnd(52), 'inserts µs', ' commit µs');
for (const variant of VARIANTS) {
  const { inserts, commit } = measure(variant.pragmas);
  console.log(variant.name.padEnd(52), inserts.toFixed(1).padStart(10), commit.toFixed(1).padStart(10));
}
