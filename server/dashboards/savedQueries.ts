// A saved insight's query as the query routes see it: checked against its kind's request schema and
// semantic rules, and with a dashboard's (or a result call's) overrides applied. The schemas are the
// served OpenAPI document's, so a saved query is accepted exactly when its route would accept it.

import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../http/openapi.js';
import { ValidationError, type FieldProblem } from '../ground/errors.js';
import { checksOf, DOC_ID, problems } from '../http/validation.js';
import { QUERIES } from '../queries/index.js';
import type { QueryRoute } from '../queries/queryRoute.js';
import type { FilterItem } from '../engine/filters.js';

export const KINDS = QUERIES.map((q) => q.path);

export type QueryBody = Record<string, unknown>;

/**
 * A dashboard-wide (or per-call) date range and filters: fixed dates (both or neither) or a rolling
 * range (rollingRange.ts), never both.
 */
export interface Overrides {
  date_from: string | null;
  date_to: string | null;
  date_range: string | null;
  filters: FilterItem[] | null;
}

export const NO_OVERRIDES: Overrides = { date_from: null, date_to: null, date_range: null, filters: null };

export class SavedQueries {
  private readonly checks = new Map<string, { route: QueryRoute; schema: ValidateFunction; fields: Set<string> }>();

  constructor(document: OpenApiDocument) {
    const checks = checksOf(document);
    for (const route of QUERIES) {
      const schema = checks.body({ $ref: `${DOC_ID}#/components/schemas/${route.doc.request}` });
      const properties = (document.components.schemas[route.doc.request]?.properties ?? {}) as Record<string, unknown>;
      this.checks.set(route.path, { route, schema, fields: new Set(Object.keys(properties)) });
    }
  }

  route(kind: string): QueryRoute {
    return this.entry(kind).route;
  }

  /**
   * A copy of `body` with the schema's defaults filled in, once it passed the schema and the query's
   * semantic check; problems are named below `field` (`query.steps[1].event`).
   */
  checked(kind: string, body: QueryBody, field = 'query'): QueryBody {
    const { route, schema } = this.entry(kind);
    const copy = structuredClone(body);
    if (!schema(copy)) {
      const list = under(field, problems(schema.errors));
      throw new ValidationError(`invalid ${field}: ${list[0]!.field} ${list[0]!.message}`, list);
    }
    try {
      route.validate?.(copy);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      throw new ValidationError(err.message, under(field, (err.details.errors as FieldProblem[] | undefined) ?? [{ field: 'body', message: err.message }]));
    }
    return copy;
  }

  /**
   * The body with the overrides in place (a rolling range already resolved to dates by the caller):
   * a date range replaces the query's own, filters are added
   * (AND) to its top-level ones, or to every step's in a funnel, which has none of its own (the
   * filter then holds for every event counted, as a top-level one would). A part the kind's body has
   * no field for is left out (the activity summary takes only date_to).
   */
  withOverrides(kind: string, body: QueryBody, overrides: Overrides): QueryBody {
    const { fields } = this.entry(kind);
    const out = structuredClone(body);
    if (overrides.date_from !== null && fields.has('date_from')) out.date_from = overrides.date_from;
    if (overrides.date_to !== null && fields.has('date_to')) out.date_to = overrides.date_to;
    const added = overrides.filters ?? [];
    if (added.length === 0) return out;
    if (fields.has('filters')) out.filters = and(out.filters, added);
    else if (fields.has('steps') && Array.isArray(out.steps)) out.steps = (out.steps as QueryBody[]).map((step) => ({ ...step, filters: and(step.filters, added) }));
    return out;
  }

  private entry(kind: string) {
    const e = this.checks.get(kind);
    // Kinds are checked by the request schemas' enum before anything gets here.
    if (!e) throw new Error(`unknown query kind ${kind}`);
    return e;
  }
}

function and(own: unknown, added: FilterItem[]): FilterItem[] {
  return [...((own as FilterItem[] | undefined) ?? []), ...added];
}

/** Compiled once per document: both dashboard domains use the same. */
const compiled = new WeakMap<OpenApiDocument, SavedQueries>();

export function savedQueries(document: OpenApiDocument): SavedQueries {
  let q = compiled.get(document);
  if (!q) compiled.set(document, (q = new SavedQueries(document)));
  return q;
}

function under(field: string, list: FieldProblem[]): FieldProblem[] {
  return list.map((p) => ({ ...p, field: p.field === 'body' ? field : `${field}.${p.field}` }));
}
