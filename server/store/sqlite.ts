// Opens the metadata database (SQLite): WAL, synchronous=FULL so a commit survives power loss,
// foreign keys enforced. Domains write their own tables through the handle they are given.

import Database from 'better-sqlite3';
import { PerOwner } from '../ground/perOwner.js';

export type MetaDb = Database.Database;

export function openMetaDb(file: string): MetaDb {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

const statements = new PerOwner<MetaDb, string, Database.Statement>();

/** `db.prepare(sql)`, compiled once per handle: for statements that run on every request. */
export function cachedStatement(db: MetaDb, sql: string): Database.Statement {
  return statements.get(db, sql, () => db.prepare(sql));
}
