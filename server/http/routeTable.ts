// Mounts every route through one table: it converts the OpenAPI path to express syntax and places
// the route's declared access checks (server/access/guard.ts, which gives the order) around the
// validation of path parameters, of query and body and the route's own checks, before the handler
// that answers. It records what is mounted, with its declaration,
// so a test can compare the mounted routes with the document and list who may call each.

import type { Express, RequestHandler } from 'express';
import type { Method, OpenApiDocument } from './openapi.js';
import type { Validation } from './validation.js';
import { apiKeyScopeOf, type Access } from '../access/access.js';
import { accessSteps, type AccessChecks } from '../access/guard.js';

export interface MountedRoute {
  method: Method;
  path: string;
  access: Access;
}

export class RouteTable {
  readonly mounted: MountedRoute[] = [];

  constructor(
    private readonly app: Express,
    private readonly validation: Validation,
    readonly document: OpenApiDocument,
    private readonly checks: AccessChecks,
  ) {}

  add(method: Method, path: string, access: Access, ...handlers: RequestHandler[]): void {
    const expressPath = path.replace(/\{(\w+)\}/g, ':$1');
    const { authenticate, authorize } = accessSteps(method, access, this.checks);
    const { params, request } = this.validation.middleware(method, path);
    // A route's handlers are its own validation steps, then the one that answers.
    const own = handlers.slice(0, -1);
    this.app[method](expressPath, ...authenticate, params, request, ...own, ...authorize, handlers.at(-1)!);
    this.mounted.push({ method, path, access });
    this.documentKeyScope(method, path, access);
  }

  /** An operation that takes a personal API key says so in its security, with the scope it needs. */
  private documentKeyScope(method: Method, path: string, access: Access): void {
    const scope = apiKeyScopeOf(method, access);
    const op = this.document.paths[path]?.[method];
    if (scope === 'never' || !op?.security?.some((s) => 'accessToken' in s)) return;
    op.security = [...op.security.filter((s) => !('personalApiKey' in s)), { personalApiKey: [scope] }];
  }

  get(path: string, access: Access, ...handlers: RequestHandler[]): void {
    this.add('get', path, access, ...handlers);
  }
  post(path: string, access: Access, ...handlers: RequestHandler[]): void {
    this.add('post', path, access, ...handlers);
  }
  put(path: string, access: Access, ...handlers: RequestHandler[]): void {
    this.add('put', path, access, ...handlers);
  }
  patch(path: string, access: Access, ...handlers: RequestHandler[]): void {
    this.add('patch', path, access, ...handlers);
  }
  delete(path: string, access: Access, ...handlers: RequestHandler[]): void {
    this.add('delete', path, access, ...handlers);
  }
}
