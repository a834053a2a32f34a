// Liveness on both surfaces, without authentication; `?ready=1` also checks both databases, that
// the disk under the data folder has room to write, and that the start-up replay of the ingest
// journal is done.

import type { Domain } from './domain.js';
import { errors, jsonResponse } from './openapi.js';
import type { Services } from './services.js';
import { ServiceUnavailableError } from '../ground/errors.js';
import { freeBytes, MIN_FREE_BYTES } from '../store/storageFull.js';
import { PUBLIC } from '../access/access.js';

const READY_TIMEOUT_MS = 2000;

const healthOperation = (surface: string) => ({
  operationId: `health${surface}`,
  summary: 'Liveness (and readiness with ready=1)',
  tags: ['health'],
  security: [],
  parameters: [{ name: 'ready', in: 'query' as const, required: false, description: 'also check both databases', schema: { type: 'string', enum: ['1', 'true'] } }],
  responses: {
    '200': jsonResponse('alive', {
      type: 'object',
      required: ['status', 'version'],
      properties: { status: { const: 'ok' }, version: { type: 'string' } },
    }),
    ...errors(422, 503),
  },
});

async function checkStores(services: Services): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  try {
    services.meta.prepare('SELECT 1').get();
    result.sqlite = 'ok';
  } catch {
    result.sqlite = 'unavailable';
  }
  try {
    await Promise.race([services.events.ping(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS).unref())]);
    result[services.events.kind] = 'ok';
  } catch {
    result[services.events.kind] = 'unavailable';
  }
  // Writes fail when the disk under the data folder is full, whatever the databases answer to reads.
  result.storage = freeBytes(services.config.data_dir) < MIN_FREE_BYTES ? 'full' : 'ok';
  // Named only while it matters, so the answer of a server at rest keeps its shape.
  if (services.replaying()) result.ingest_journal = 'loading';
  return result;
}

export const healthDomain: Domain = {
  name: 'health',
  openapi: {
    paths: {
      '/api/v1/health': { get: healthOperation('Api') },
      '/v1/health': { get: healthOperation('Ingest') },
    },
  },
  mount(routes, services) {
    const handler = async (req: import('express').Request, res: import('express').Response) => {
      if (req.valid.query.ready !== undefined) {
        const checks = await checkStores(services);
        if (checks.storage === 'full') throw new ServiceUnavailableError('the disk of the data folder is full: writes fail until space is freed', checks);
        if (checks.ingest_journal === 'loading') throw new ServiceUnavailableError('the server is loading the events acknowledged before its last stop', checks);
        if (Object.values(checks).some((v) => v !== 'ok')) throw new ServiceUnavailableError('a database did not answer', checks);
      }
      res.json({ status: 'ok', version: services.version });
    };
    routes.get('/api/v1/health', PUBLIC, handler);
    routes.get('/v1/health', PUBLIC, handler);
  },
};
