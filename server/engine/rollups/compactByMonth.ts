// The compaction of a rollup whose rows hold lists (page_days, click_elements): the delta rows
// merged a run of whole project-months at a time, in key order, into a table that replaces the old
// one (see actorDayFolder.ts's compaction). The merged lists of a whole store do not fit the event
// store's memory at once (page_days at 10M events, not in 192 MB).

/** Rows merged by one statement of a compaction. */
export const ROWS_PER_MERGE = 500_000;

/**
 * Merges `table`'s rows by `keys` (project_id, day first) into `merged` (the table's columns after
 * its keys, as aggregates over the rows of one key), at most `perMerge` rows at a time. `run` and
 * `read` are the compaction's transaction's.
 */
export async function compactByMonth(
  table: string,
  keys: readonly string[],
  merged: string,
  run: (sql: string) => Promise<void>,
  read: (sql: string) => Promise<Array<Record<string, unknown>>>,
  perMerge = ROWS_PER_MERGE,
): Promise<void> {
  await run(`CREATE TABLE ${table}_merged AS FROM ${table} LIMIT 0`);
  const parts = (await read(`SELECT project_id, strftime(date_trunc('month', day), '%Y-%m-%d') AS month, count(*) AS n FROM ${table} GROUP BY ALL ORDER BY project_id, month`)).map((r) => {
    // Both come from the table itself, an integer and a date strftime wrote; checked before they are written into SQL.
    const part = { project: Number(r.project_id), month: String(r.month), rows: Number(r.n) };
    if (!Number.isSafeInteger(part.project) || !/^\d{4}-\d{2}-01$/.test(part.month)) throw new Error(`${table}: an unexpected part ${part.project} ${part.month}`);
    return part;
  });
  const from = (p: { project: number; month: string }) => `(project_id > ${p.project} OR (project_id = ${p.project} AND day >= DATE '${p.month}'))`;
  const before = (p: { project: number; month: string }) => `(project_id < ${p.project} OR (project_id = ${p.project} AND day < DATE '${p.month}'))`;
  const key = keys.join(', ');
  for (let first = 0; first < parts.length; ) {
    let next = first + 1;
    for (let rows = parts[first]!.rows; next < parts.length && rows + parts[next]!.rows <= perMerge; next++) rows += parts[next]!.rows;
    const range = [from(parts[first]!), ...(next < parts.length ? [before(parts[next]!)] : [])].join(' AND ');
    await run(`INSERT INTO ${table}_merged SELECT ${key}, ${merged} FROM ${table} WHERE ${range} GROUP BY ${key} ORDER BY ${key}`);
    first = next;
  }
  await run(`DROP TABLE ${table}`);
  await run(`ALTER TABLE ${table}_merged RENAME TO ${table}`);
}
