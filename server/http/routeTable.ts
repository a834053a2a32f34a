// Mounts every route through one table: it converts the OpenAPI path to express syntax, places
// schema validation after authentication, and records what is mounted so a test can compare the
// mounted routes with the document.

import type { Express, RequestHandler } from 'express';
import type { Method, OpenApiDocument } from './openapi.js';
import type { Validation } from './validation.js';

export interface RouteOptions {
  /** Runs before validation (authentication), so an anonymous caller gets 401 before 422. */
  auth?: RequestHandler[];
}

/** A check placed right after a route's authentication, chosen per operation (undefined: none). */
export type AfterAuth = (method: Method, path: string) => RequestHandler | undefined;

export class RouteTable {
  readonly mounted: Array<{ method: Method; path: string }> = [];

  constructor(
    private readonly app: Express,
    private readonly validation: Validation,
    readonly document: OpenApiDocument,
    private readonly afterAuth: AfterAuth = () => undefined,
  ) {}

  add(method: Method, path: string, options: RouteOptions, ...handlers: RequestHandler[]): void {
    const expressPath = path.replace(/\{(\w+)\}/g, ':$1');
    const auth = [...(options.auth ?? [])];
    const check = auth.length > 0 ? this.afterAuth(method, path) : undefined;
    if (check) auth.push(check);
    this.app[method](expressPath, ...auth, this.validation.middleware(method, path), ...handlers);
    this.mounted.push({ method, path });
  }

  get(path: string, options: RouteOptions, ...handlers: RequestHandler[]): void {
    this.add('get', path, options, ...handlers);
  }
  post(path: string, options: RouteOptions, ...handlers: RequestHandler[]): void {
    this.add('post', path, options, ...handlers);
  }
  put(path: string, options: RouteOptions, ...handlers: RequestHandler[]): void {
    this.add('put', path, options, ...handlers);
  }
  patch(path: string, options: RouteOptions, ...handlers: RequestHandler[]): void {
    this.add('patch', path, options, ...handlers);
  }
  delete(path: string, options: RouteOptions, ...handlers: RequestHandler[]): void {
    this.add('delete', path, options, ...handlers);
  }
}
