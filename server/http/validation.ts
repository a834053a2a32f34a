// Compiles the request schemas of the OpenAPI document with ajv at start-up and gives each route
// its middlewares checking its path parameters, query and JSON body against them.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { RequestHandler } from 'express';
import { BadRequestError, ValidationError, type FieldProblem } from '../ground/errors.js';
import type { Method, OpenApiDocument, Operation, Parameter, JsonSchema } from './openapi.js';
import { PATH_ID_RULE, parsePathId } from './pathId.js';

// ajv-formats ships CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Request id, echoed in X-Request-Id and in 500 answers. */
      id: string;
      /** Path and query parameters after schema validation and coercion. */
      valid: { params: Record<string, unknown>; query: Record<string, unknown> };
    }
  }
}

export const DOC_ID = 'openapi.json';

/** Checks compiled from one OpenAPI document: request bodies as sent, parameters coerced from text. */
export interface DocumentChecks {
  body(schema: JsonSchema): ValidateFunction;
  params(schema: JsonSchema): ValidateFunction;
}

/** How many documents' checks a process keeps (they differ only by the version a server reports). */
const KEPT_DOCUMENTS = 4;
const documentChecks = new Map<string, DocumentChecks>();

/**
 * The checks of a document, each schema compiled once per process: servers built from the same
 * document share them. One server per process compiles as before; a process that starts many (a
 * test file) spent about half a second of each start compiling the same schemas again. A compiled
 * check holds no state between calls beyond its last `errors`, read right after the call.
 */
export function checksOf(doc: OpenApiDocument): DocumentChecks {
  // Security takes no part in a check; mounting writes the key scopes into it.
  const key = JSON.stringify(doc, (name, value: unknown) => (name === 'security' ? undefined : value));
  const kept = documentChecks.get(key);
  if (kept) return kept;
  const compiler = (coerce: boolean) => {
    const ajv = makeAjv(coerce);
    ajv.addSchema(doc as unknown as JsonSchema, DOC_ID);
    const compiled = new Map<string, ValidateFunction>();
    return (schema: JsonSchema) => {
      const text = JSON.stringify(schema);
      let check = compiled.get(text);
      if (!check) {
        check = ajv.compile(schema);
        compiled.set(text, check);
      }
      return check;
    };
  };
  const checks: DocumentChecks = { body: compiler(false), params: compiler(true) };
  documentChecks.set(key, checks);
  if (documentChecks.size > KEPT_DOCUMENTS) documentChecks.delete(documentChecks.keys().next().value!);
  return checks;
}

export class Validation {
  private readonly checks: DocumentChecks;

  constructor(private readonly doc: OpenApiDocument) {
    this.checks = checksOf(doc);
  }

  operation(method: Method, path: string): Operation | undefined {
    return this.doc.paths[path]?.[method];
  }

  /**
   * The two middlewares validating one documented operation: its path parameters, which name the
   * project or organization access is checked against, then its query and JSON body, after access.
   * Throws at start-up for an undocumented operation.
   */
  middleware(method: Method, path: string): { params: RequestHandler; request: RequestHandler } {
    const op = this.operation(method, path);
    if (!op) throw new Error(`route ${method.toUpperCase()} ${path} is mounted but not in the OpenAPI document`);
    const params = op.parameters ?? [];
    const pathCheck = this.compileParams(params.filter((p) => p.in === 'path'));
    const idParams = this.integerPathParams(method, path);
    const queryCheck = this.compileParams(params.filter((p) => p.in === 'query'));
    const body = op.requestBody?.content['application/json'];
    const bodyCheck = body ? this.checks.body({ $ref: `${DOC_ID}#/paths/${pointer(path)}/${method}/requestBody/content/application~1json/schema` }) : undefined;
    const bodyRequired = op.requestBody?.required ?? false;

    const paramsStep: RequestHandler = (req, _res, next) => {
      const pathParams = { ...req.params } as Record<string, unknown>;
      for (const name of idParams) pathParams[name] = requirePathId(name, String(req.params[name]));
      if (pathCheck && !pathCheck(pathParams)) {
        throw new BadRequestError(`invalid path parameter: ${describe(pathCheck.errors)}`, { errors: problems(pathCheck.errors) });
      }
      req.valid = { params: pathParams, query: {} };
      next();
    };
    const requestStep: RequestHandler = (req, _res, next) => {
      const query = structuredClone({ ...(req.query as Record<string, unknown>) });
      if (queryCheck && !queryCheck(query)) {
        const list = problems(queryCheck.errors);
        throw new ValidationError(`invalid query parameter ${list[0]!.field}: ${list[0]!.message}`, list);
      }
      req.valid.query = query;
      if (bodyCheck) {
        if (req.body === undefined || req.body === null) {
          if (bodyRequired) throw new ValidationError('a JSON request body is required', [{ field: 'body', message: 'is required' }]);
          req.body = {};
        }
        if (!bodyCheck(req.body)) {
          const list = problems(bodyCheck.errors);
          throw new ValidationError(`invalid request body: ${list[0]!.field} ${list[0]!.message}`, list);
        }
      }
      next();
    };
    return { params: paramsStep, request: requestStep };
  }

  /** The path parameters read as integer ids; ajv's coercion would take `0x10` or `1e0` for a number. */
  integerPathParams(method: Method, path: string): string[] {
    const params = this.operation(method, path)?.parameters ?? [];
    return params.filter((p) => p.in === 'path' && isIntegerSchema(p.schema)).map((p) => p.name);
  }

  private compileParams(params: Parameter[]): ValidateFunction | undefined {
    if (params.length === 0) return undefined;
    const schema: JsonSchema = {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      required: params.filter((p) => p.required).map((p) => p.name),
    };
    return this.checks.params(schema);
  }
}

function isIntegerSchema(schema: JsonSchema | undefined): boolean {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

function requirePathId(name: string, raw: string): number {
  const id = parsePathId(raw);
  if (id === undefined) throw new BadRequestError(`invalid path parameter: ${name} ${PATH_ID_RULE}`, { errors: [{ field: name, message: PATH_ID_RULE }] });
  return id;
}

/** ajv as the routes use it: defaults filled in, formats checked, every error reported. */
export function makeAjv(coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    validateSchema: false,
    // Errors carry the value, so a refused time can be quoted back.
    verbose: true,
  });
  addTimeFormats(ajv);
  return ajv;
}

/** RFC 3339 allows second 60; JavaScript dates and DuckDB timestamps cannot hold it. */
const LEAP_SECOND = /^\d{4}-\d\d-\d\dT\d\d:\d\d:60(\.\d+)?(Z|[+-]\d\d:\d\d)$/i;

export function isLeapSecond(value: string): boolean {
  return LEAP_SECOND.test(value);
}

/** ajv-formats' formats, with `date-time` limited to instants a Date can hold (no leap second). */
export function addTimeFormats(ajv: Ajv2020): void {
  addFormats(ajv);
  const rfc3339 = ajv.formats['date-time'] as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined };
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => rfc3339.validate(s) && !Number.isNaN(Date.parse(s)), compare: rfc3339.compare });
}

/** The problem with a leap-second value, to follow its field name. */
export function leapSecondProblem(value: string): string {
  return `${JSON.stringify(value)} is a leap second, which is not accepted; send 23:59:59 or the next second`;
}

function pointer(path: string): string {
  return path.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Turns ajv errors into `{field, message}` with dotted field names (`steps[1].event`). */
export function problems(errors: ErrorObject[] | null | undefined): FieldProblem[] {
  const out: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    let field = e.instancePath
      .split('/')
      .slice(1)
      .map((seg) => seg.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc ? `${acc}.${seg}` : seg), '');
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      const missing = String((e.params as { missingProperty: string }).missingProperty);
      field = field ? `${field}.${missing}` : missing;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      const extra = String((e.params as { additionalProperty: string }).additionalProperty);
      field = field ? `${field}.${extra}` : extra;
      message = 'is not a known field';
    } else if (e.keyword === 'format' && typeof e.data === 'string' && isLeapSecond(e.data)) {
      message = leapSecondProblem(e.data);
    } else if (e.keyword === 'pattern' && (e.params as { pattern: string }).pattern === '\\S') {
      // The schemas' way of saying "not only spaces" (names), in words.
      message = 'must not be blank';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    if (!field) field = 'body';
    const id = `${field}\u0000${message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ field, message });
  }
  return out.length > 0 ? out : [{ field: 'body', message: 'is invalid' }];
}

function describe(errors: ErrorObject[] | null | undefined): string {
  const [first] = problems(errors);
  return `${first!.field} ${first!.message}`;
}
