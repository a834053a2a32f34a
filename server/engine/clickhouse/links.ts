// The identity links as they stand, read from ClickHouse's identity_links (migration 0004). A link
// changed is a new row of a larger `version`, and parts merge when ClickHouse pleases: a read keeps,
// per distinct key, the values of the row of the largest version (argMax), which is exact whatever
// has merged, and lets a condition on the actor apply after that choice (a condition beside FINAL
// could be applied to rows FINAL would have dropped). Every node holds every link, so these reads run
// on the node they are sent to; a statement whose FROM is a Distributed table must not name them
// inside it (a shard resolves a table it is not told the database of in its own default database).

import { createHash } from 'node:crypto';
import { literal } from './literal.js';

/**
 * The key events and links hold for a distinct id: the low half of its md5, as ingestion's
 * distinctKey.ts and DuckDB's md5_number_lower compute it. Computed here rather than in the
 * statement: 18.16 evaluates expressions in an INSERT's VALUES only within its first 256 KiB.
 */
export function distinctKeyOf(distinctId: string): bigint {
  return createHash('md5').update(distinctId, 'utf8').digest().readBigUInt64LE(8);
}

/**
 * The project's links, one row per linked distinct id: `distinct_key`, `distinct_id`, `actor_id`,
 * `actor_key`. `ids`, when given, keeps the rows of those ids only (looked up by their keys).
 */
export function linksSql(projectId: number, ids?: readonly string[]): string {
  const keys = ids === undefined ? '' : ` AND distinct_key IN (${ids.length === 0 ? '0' : ids.map((id) => literal(distinctKeyOf(id))).join(', ')})`;
  const byId = ids === undefined ? '' : ` HAVING distinct_id IN (${ids.length === 0 ? "''" : ids.map(literal).join(', ')})`;
  return `SELECT distinct_key, argMax(distinct_id, version) AS distinct_id, argMax(actor_id, version) AS actor_id, argMax(actor_key, version) AS actor_key
  FROM identity_links WHERE project_id = ${literal(projectId)}${keys} GROUP BY distinct_key${byId}`;
}
