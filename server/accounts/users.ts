// User records. Passwords arrive here already checked against the rule and leave only as hashes.

import type { MetaDb } from '../store/sqlite.js';
import { hashPassword } from '../auth/passwords.js';

export interface User {
  id: number;
  email: string;
  name: string | null;
  created_at: string;
}

export async function createUser(db: MetaDb, input: { email: string; password?: string; name?: string | null }, now: Date): Promise<User> {
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  const info = db
    .prepare('INSERT INTO users (email, password_hash, name, created_at) VALUES (?, ?, ?, ?)')
    .run(input.email.trim().toLowerCase(), hash, input.name ?? null, now.toISOString());
  return getUser(db, Number(info.lastInsertRowid))!;
}

export function getUser(db: MetaDb, id: number): User | undefined {
  return db.prepare('SELECT id, email, name, created_at FROM users WHERE id = ?').get(id) as User | undefined;
}

export function findUserByEmail(db: MetaDb, email: string): (User & { password_hash: string | null }) | undefined {
  return db.prepare('SELECT id, email, name, created_at, password_hash FROM users WHERE email = ?').get(email.trim().toLowerCase()) as
    | (User & { password_hash: string | null })
    | undefined;
}

export function countUsers(db: MetaDb): number {
  return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
}
