// Serves the assembled OpenAPI document.

import type { Domain } from './domain.js';
import { jsonResponse } from './openapi.js';
import { PUBLIC } from '../access/access.js';

export const openapiDomain: Domain = {
  name: 'openapi',
  openapi: {
    paths: {
      '/api/v1/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This OpenAPI 3.1 document',
          tags: ['meta'],
          security: [],
          responses: { '200': jsonResponse('the document', { type: 'object' }) },
        },
      },
    },
  },
  mount(routes) {
    routes.get('/api/v1/openapi.json', PUBLIC, (_req, res) => {
      res.json(routes.document);
    });
  },
};
