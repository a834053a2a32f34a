// The cursor codec a query receives in place of the server secret: it signs positions to the
// query's effective scope (see server/http/cursor.ts) so query modules stay free of key handling.

import type { Services } from '../http/services.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';

export interface CursorCodec {
  encode(scope: unknown, position: unknown): string;
  /** Throws 422 `validation_failed` naming `field` when the token was not made for this scope. */
  decode<T>(scope: unknown, token: string, field: string): T;
}

export function cursorCodec(services: Pick<Services, 'secret'>): CursorCodec {
  return {
    encode: (scope, position) => encodeCursor(services, scope, position),
    decode: <T>(scope: unknown, token: string, field: string) => decodeCursor<T>(services, scope, token, field),
  };
}
