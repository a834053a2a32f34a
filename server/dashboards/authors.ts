// Who created and last changed an insight or dashboard, as the API shows them: read by joining the
// users table, so a deleted user shows as null and a renamed one by the new name.

export interface Author {
  id: number;
  email: string;
  name: string | null;
}

/** A saved thing of a project, with who made and last changed it, and when. */
export interface Authored {
  id: number;
  project_id: number;
  created_by: Author | null;
  updated_by: Author | null;
  created_at: string;
  updated_at: string;
}

/** Columns `<alias>_id`, `<alias>_email`, `<alias>_name` of the users row joined as `alias`. */
export function authorColumns(alias: string): string {
  return `${alias}.id AS ${alias}_id, ${alias}.email AS ${alias}_email, ${alias}.name AS ${alias}_name`;
}

export function authorOf(row: Record<string, unknown>, alias: string): Author | null {
  const id = row[`${alias}_id`];
  if (id === null || id === undefined) return null;
  return { id: Number(id), email: String(row[`${alias}_email`]), name: (row[`${alias}_name`] as string | null) ?? null };
}
