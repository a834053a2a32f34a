// The OpenAPI 3.1 document: a base (errors, security schemes) plus one fragment per domain.
// It is served as /api/v1/openapi.json and is the only source of request schemas (see validation.ts).

export type JsonSchema = Record<string, unknown>;

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface OpenApiFragment {
  paths: Record<string, Partial<Record<Method, Operation>>>;
  schemas?: Record<string, JsonSchema>;
}

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: Array<{ url: string }>;
  paths: Record<string, Partial<Record<Method, Operation>>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown>; responses: Record<string, unknown> };
}

export const API_VERSION = '1.0.0';

const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', description: 'machine-readable snake_case code' },
        message: { type: 'string' },
        details: { type: 'object', description: 'field names, limits, request id; never a stack trace' },
      },
    },
  },
};

const STANDARD_ERRORS: Record<string, string> = {
  '400': 'malformed request (unreadable JSON or path id)',
  '401': 'missing, invalid, expired or revoked credentials',
  '402': 'subscription or trial state pauses this capability',
  '403': 'role, entitlement or credential scope insufficient',
  '404': 'resource missing or in another project or organization',
  '408': 'query exceeded its time limit',
  '409': 'conflict with existing state',
  '410': 'gone: removed once past its keeping',
  '413': 'request body over the limit',
  '422': 'validation failed; details.field names the first offending field',
  '429': 'rate limited; Retry-After gives seconds',
  '501': 'not configured on this installation, or not answered by its event engine yet (`engine_unsupported`, details.feature names what)',
  '503': 'not ready',
};

export function baseDocument(version: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: {
      title: 'pp',
      version: API_VERSION,
      description: `Self-hosted product analytics. Server release ${version}. Main API under /api/v1, ingestion and tracker files under /v1.`,
    },
    servers: [{ url: '/' }],
    paths: {},
    components: {
      schemas: { Error: ERROR_SCHEMA },
      securitySchemes: {
        accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: '15-minute access token from /api/v1/auth/login' },
        ingestionKey: { type: 'http', scheme: 'bearer', description: 'pp_bt_ browser token or pp_sk_ server key' },
        releaseToken: { type: 'http', scheme: 'bearer', description: 'pp_rel_ release token; deploy marker only' },
        personalApiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'pp_pk_ personal API key, sent as a Bearer value where an access token is taken, on operations about projects and the organization, within its scopes',
        },
        legacyKey: { type: 'apiKey', in: 'query', name: 'key', description: 'pp_wk_ legacy key only; deprecated' },
      },
      responses: Object.fromEntries(
        Object.entries(STANDARD_ERRORS).map(([status, description]) => [`E${status}`, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
      ),
    },
  };
}

/** Error responses by status, referencing the shared envelope. */
export function errors(...statuses: number[]): Record<string, unknown> {
  return Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/E${s}` }]));
}

export function jsonResponse(description: string, schema: JsonSchema): Record<string, unknown> {
  return { description, content: { 'application/json': { schema } } };
}

export function jsonBody(schema: JsonSchema, required = true): Operation['requestBody'] {
  return { required, content: { 'application/json': { schema } } };
}

export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

export function assembleDocument(version: string, fragments: OpenApiFragment[]): OpenApiDocument {
  const doc = baseDocument(version);
  for (const f of fragments) {
    for (const [path, ops] of Object.entries(f.paths)) {
      const target = (doc.paths[path] ??= {});
      for (const [method, op] of Object.entries(ops) as Array<[Method, Operation]>) {
        if (target[method]) throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is described twice`);
        // Every read of events (those with a time limit) may meet an engine that does not answer it yet.
        // Each document has operations of its own: mounting writes a route's key scope into its
        // operation, which must not reach the domain's fragment and every later document of the process.
        target[method] = op.responses['408'] && !op.responses['501'] ? { ...op, responses: { ...op.responses, ...errors(501) } } : { ...op };
      }
    }
    for (const [name, schema] of Object.entries(f.schemas ?? {})) {
      if (doc.components.schemas[name]) throw new Error(`OpenAPI: schema ${name} is defined twice`);
      doc.components.schemas[name] = schema;
    }
  }
  return doc;
}
