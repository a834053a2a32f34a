// What a domain folder contributes to the app: its part of the OpenAPI document and its routes.

import type { OpenApiFragment } from './openapi.js';
import type { RouteTable } from './routeTable.js';
import type { Services } from './services.js';

export interface Domain {
  name: string;
  openapi: OpenApiFragment;
  mount(routes: RouteTable, services: Services): void;
}
