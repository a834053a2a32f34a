// What every analytical query route is: its documentation, semantic validation, the entitlements
// its parameters call for, and execute = shape(run(...)). routes.ts mounts every one the same way.

import type { Entitlement } from '../license/requireEntitlement.js';
import type { EventEngine } from '../engine/engine.js';
import type { QueryContext, QueryName } from './context.js';
import type { CursorCodec } from './cursors.js';
import type { QueryOperationDoc } from './openapi.js';

// biome-ignore lint/suspicious/noExplicitAny: the route table holds every query, each with its own parameters
export interface QueryRoute<P = any> {
  name: QueryName;
  /** Path below /api/v1/projects/{id}/queries/. */
  path: string;
  doc: QueryOperationDoc;
  /** Semantic checks beyond the schema (422); runs before any authorization. */
  validate?(p: P): void;
  /** Entitlements these parameters need, besides saved_segments for segment filters. */
  entitlements(p: P): Entitlement[];
  execute(engine: EventEngine, p: P, ctx: QueryContext, cursors: CursorCodec): Promise<unknown>;
}
