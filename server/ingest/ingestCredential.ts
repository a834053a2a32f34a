// What an authenticated ingestion request carries (credentials.ts sets it on the request): the key,
// the source its events are stored with, and whether the key came in the query string. A type of
// its own, so that what records refusals need not import the authentication that uses them.

import type { IngestKey } from '../keys/ingestKeys.js';
import type { EventSource } from './normalizeEvent.js';

export type IngestOperation = 'track' | 'identify' | 'alias' | 'replay' | 'capture';

export interface IngestCredential {
  key: IngestKey;
  source: EventSource;
  viaQuery: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      ingest?: IngestCredential;
    }
  }
}
