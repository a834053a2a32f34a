// The error types every domain throws; server/http/errorHandler.ts turns them into the envelope.
// A thrown AppError is an answer we chose; anything else is a bug and becomes 500 `internal`.

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetails;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** 422 `validation_failed`; `details.field` names the first offending field, `details.errors` all of them. */
export class ValidationError extends AppError {
  constructor(message: string, problems: FieldProblem[] | string = [], extra: ErrorDetails = {}) {
    const list = typeof problems === 'string' ? [{ field: problems, message }] : problems;
    const details: ErrorDetails = { ...extra };
    if (list.length > 0) {
      details.field = list[0]!.field;
      details.errors = list;
    }
    super(422, 'validation_failed', message, details);
  }
}

/** 400 `validation_failed`: the request could not even be read (malformed JSON, bad path id). */
export class BadRequestError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(400, 'validation_failed', message, details);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'authentication required') {
    super(401, 'unauthorized', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'not allowed', code = 'forbidden', details: ErrorDetails = {}) {
    super(403, code, message, details);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'not found') {
    super(404, 'not_found', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict', details: ErrorDetails = {}) {
    super(409, code, message, details);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limitBytes: number) {
    super(413, 'payload_too_large', `request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes });
  }
}

export class QueryTimeoutError extends AppError {
  constructor(timeoutMs: number) {
    super(408, 'query_timeout', `query exceeded its ${timeoutMs} ms time limit`, { timeout_ms: timeoutMs });
  }
}

/** A query that needs more memory than the event store's budget: retrying the same query will not help. */
export class QueryMemoryError extends AppError {
  constructor(memoryLimitMb: number | undefined) {
    const budget = memoryLimitMb === undefined ? 'its memory budget' : `its memory budget (events.memory_limit_mb = ${memoryLimitMb})`;
    super(503, 'query_memory_exceeded', `the query needs more memory than the event store may use within ${budget}; narrow the date range or raise the setting`, {
      ...(memoryLimitMb === undefined ? {} : { memory_limit_mb: memoryLimitMb }),
    });
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, code = 'rate_limited') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, code, 'too many requests', { retry_after: seconds }, { 'Retry-After': String(seconds) });
  }
}

const STORAGE_RETRY_SECONDS = 60;

/** 503 `storage_full`: the disk under the data folder is full; nothing of the request was written. */
export class StorageFullError extends AppError {
  constructor() {
    super(
      503,
      'storage_full',
      "the server's disk is full, so nothing was written; send the request again once space is freed on the data folder's file system (ppctl doctor shows it)",
      { retry_after: STORAGE_RETRY_SECONDS },
      { 'Retry-After': String(STORAGE_RETRY_SECONDS) },
    );
  }
}

export class ServiceUnavailableError extends AppError {
  constructor(message: string, details: ErrorDetails = {}) {
    super(503, 'unavailable', message, details);
  }
}
