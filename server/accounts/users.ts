// User records. Passwords arrive here already checked against the rule and leave only as hashes.

import type { MetaDb } from '../store/sqlite.js';
import { hashPassword } from '../ground/passwords.js';

export interface User {
  id: number;
  email: string;
  name: string | null;
  created_at: string;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createUser(db: MetaDb, input: { email: string; password?: string; name?: string | null }, now: Date): Promise<User> {
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  return insertUser(db, { email: input.email, passwordHash: hash, name: input.name }, now);
}

/** The synchronous half of createUser, for callers that hash first and then write in one transaction. */
export function insertUser(db: MetaDb, input: { email: string; passwordHash: string | null; name?: string | null }, now: Date): User {
  const info = db.prepare('INSERT INTO users (email, password_hash, name, created_at) VALUES (?, ?, ?, ?)').run(normalizeEmail(input.email), input.passwordHash, input.name ?? null, now.toISOString());
  return getUser(db, Number(info.lastInsertRowid))!;
}

export function getUser(db: MetaDb, id: number): User | undefined {
  return db.prepare('SELECT id, email, name, created_at FROM users WHERE id = ?').get(id) as User | undefined;
}

export function findUserByEmail(db: MetaDb, email: string): (User & { password_hash: string | null }) | undefined {
  return db.prepare('SELECT id, email, name, created_at, password_hash FROM users WHERE email = ?').get(normalizeEmail(email)) as (User & { password_hash: string | null }) | undefined;
}

export function passwordHashOf(db: MetaDb, userId: number): string | null {
  const row = db.prepare('SELECT password_hash FROM users WHERE id = ?').get(userId) as { password_hash: string | null } | undefined;
  return row?.password_hash ?? null;
}

export function setPasswordHash(db: MetaDb, userId: number, passwordHash: string): void {
  db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId);
}

/** Whether the user must replace the password before using the console (a one-time or operator-set one). */
export function passwordChangeRequired(db: MetaDb, userId: number): boolean {
  const row = db.prepare('SELECT password_change_required AS required FROM users WHERE id = ?').get(userId) as { required: number } | undefined;
  return row?.required === 1;
}

export function setPasswordChangeRequired(db: MetaDb, userId: number, required: boolean): void {
  db.prepare('UPDATE users SET password_change_required = ? WHERE id = ?').run(required ? 1 : 0, userId);
}

export function setUserName(db: MetaDb, userId: number, name: string): void {
  db.prepare('UPDATE users SET name = ? WHERE id = ?').run(name, userId);
}

export function countUsers(db: MetaDb): number {
  return (db.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
}
