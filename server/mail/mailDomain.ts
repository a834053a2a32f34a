// Mail has no HTTP routes of its own: mounting it starts the outbox worker for the running server.

import type { Domain } from '../http/domain.js';
import { startMailWorker } from './mailWorker.js';

export const mailDomain: Domain = {
  name: 'mail',
  openapi: { paths: {} },
  mount(_routes, services) {
    startMailWorker(services);
  },
};
