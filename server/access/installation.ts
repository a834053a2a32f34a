// Facts about this installation kept in SQLite: its id (licenses may be bound to it) and other
// single values other parts need to remember across restarts.

import { randomUUID } from 'node:crypto';
import type { MetaDb } from '../store/sqlite.js';

export function readInstallationValue(db: MetaDb, key: string): string | undefined {
  return (db.prepare('SELECT value FROM installation WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

export function writeInstallationValue(db: MetaDb, key: string, value: string): void {
  db.prepare('INSERT INTO installation (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** The installation id, created on first use. */
export function installId(db: MetaDb): string {
  const existing = readInstallationValue(db, 'install_id');
  if (existing) return existing;
  const id = randomUUID();
  db.prepare('INSERT OR IGNORE INTO installation (key, value) VALUES (?, ?)').run('install_id', id);
  return readInstallationValue(db, 'install_id')!;
}
