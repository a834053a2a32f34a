// The one way an insight asks the API: a query route by name with its typed body, the answer typed
// by the same route. useQuery reloads when the project or the body changes; no body, no request.

import { api, ok } from '../api/client';
import { useAsync, type Async } from '../ui/useAsync';
import { queryPath, type QueryAnswer, type QueryBody, type QueryName } from './queryTypes';

type Post = (path: string, init: { params: { path: { id: number } }; body: unknown }) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** One query's answer, or the API's error. */
export function runQuery<N extends QueryName>(name: N, projectId: number, body: QueryBody<N>): Promise<QueryAnswer<N>> {
  // The route is one of the typed union, its body and answer typed by it above; the client's own
  // overloads cannot follow a route chosen by a type parameter, hence the one widened call here.
  const post = api.POST as unknown as Post;
  return ok(post(queryPath(name), { params: { path: { id: projectId } }, body })) as Promise<QueryAnswer<N>>;
}

/** The answer of `body` (undefined while the page cannot ask yet) asked of route `name`. */
export function useQuery<N extends QueryName>(name: N, projectId: number, body: QueryBody<N>): Async<QueryAnswer<N>>;
export function useQuery<N extends QueryName>(name: N, projectId: number, body: QueryBody<N> | undefined): Async<QueryAnswer<N> | undefined>;
export function useQuery<N extends QueryName>(name: N, projectId: number, body: QueryBody<N> | undefined): Async<QueryAnswer<N> | undefined> {
  return useAsync(() => (body === undefined ? Promise.resolve(undefined) : runQuery(name, projectId, body)), [name, projectId, body === undefined ? undefined : JSON.stringify(body)]);
}
