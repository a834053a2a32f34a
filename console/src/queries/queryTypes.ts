// The query routes of the API by name (`funnel`, `retention/actors`, …) with their request body and
// answer, read from the OpenAPI types, so each insight's codec, page and view are typed per kind.

import type { paths } from '../api/schema.js';

const PREFIX = '/api/v1/projects/{id}/queries/';
type Prefix = typeof PREFIX;

type QueryPath = Extract<keyof paths, `${Prefix}${string}`>;

/** A query route below /queries/, as the server's query list names it. */
export type QueryName = QueryPath extends `${Prefix}${infer Name}` ? Name : never;

type Operation<N extends QueryName> = paths[`${Prefix}${N}`]['post'];

/** The body a query route takes (a property with a default may be left out). */
export type QueryBody<N extends QueryName> = NonNullable<Operation<N>['requestBody']>['content']['application/json'];

/** The answer of a query route. */
export type QueryAnswer<N extends QueryName> = Operation<N>['responses'][200]['content']['application/json'];

/** The API path of a query route. */
export const queryPath = <N extends QueryName>(name: N) => `${PREFIX}${name}` as `${Prefix}${N}`;
