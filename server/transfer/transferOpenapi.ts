// The import and export routes in the OpenAPI document (docs/migrating.md#api describes them).

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type Operation, type Parameter } from '../http/openapi.js';
import type { OpenApiFragment } from '../http/openapi.js';
import { IMPORT_FORMATS } from './importJob.js';
import { EXPORT_FORMATS } from './exportJob.js';
import { REJECTIONS_SHOWN, TRANSFERS_LISTED } from './transferJobs.js';
import { STORED_FIELDS } from '../engine/rows.js';
import { UPLOAD_MAX_BYTES } from './startTransfer.js';
import { EXPORT_LINK_TTL_MS } from './exportLink.js';
import { EXPORT_KEPT_MS } from './transferSweep.js';

export const IMPORTS = '/api/v1/projects/{id}/imports';
export const IMPORT = `${IMPORTS}/{importID}`;
export const EXPORTS = '/api/v1/projects/{id}/exports';
export const EXPORT = `${EXPORTS}/{exportID}`;
export const DOWNLOAD = `${EXPORT}/download`;

const time = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });
const STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

const schemas: Record<string, JsonSchema> = {
  ImportJob: {
    type: 'object',
    required: [
      'id',
      'state',
      'format',
      'files',
      'total_bytes',
      'done_bytes',
      'lines',
      'stored',
      'duplicates',
      'rejected',
      'rejections',
      'error',
      'created_at',
      'started_at',
      'finished_at',
      'updated_at',
      'file_removed_at',
    ],
    properties: {
      id: { type: 'integer', format: 'int64' },
      state: { enum: STATES, description: 'queued → running → succeeded, failed or cancelled; a job running when the server stopped resumes from its checkpoint at the next start' },
      format: { enum: [...IMPORT_FORMATS] },
      files: { type: 'array', items: { type: 'string' }, description: 'the names of the files imported' },
      total_bytes: { type: 'integer', minimum: 0, description: 'size of the files' },
      done_bytes: { type: 'integer', minimum: 0, description: 'bytes of the files read so far' },
      lines: { type: 'integer', minimum: 0, description: 'records read (header rows not counted)' },
      stored: { type: 'integer', minimum: 0, description: 'events stored' },
      duplicates: { type: 'integer', minimum: 0, description: 'events not stored because the project holds their uuid already (or an earlier line of the import did)' },
      rejected: { type: 'integer', minimum: 0, description: 'records refused' },
      rejections: {
        type: 'array',
        maxItems: REJECTIONS_SHOWN,
        description: `the first ${REJECTIONS_SHOWN} refused records: file (zip entries as file:entry), 1-based line where the record starts, and why`,
        items: { type: 'object', required: ['file', 'line', 'reason'], properties: { file: { type: 'string' }, line: { type: 'integer', minimum: 1 }, reason: { type: 'string' } } },
      },
      error: { type: ['string', 'null'], description: 'why the job failed; null otherwise' },
      created_at: { type: 'string', format: 'date-time' },
      started_at: time('when the job last started; null while it never ran'),
      finished_at: time('null until the job ended'),
      updated_at: { type: 'string', format: 'date-time', description: 'when the progress was last saved' },
      file_removed_at: time(
        'when the uploaded file was removed: as the import succeeded, or at the first hourly sweep after it was cancelled or failed; null while it is kept, and for files ppctl read from the local disk',
      ),
    },
  },
  ImportJobList: {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: { items: { type: 'array', maxItems: TRANSFERS_LISTED, items: ref('ImportJob'), description: `the latest ${TRANSFERS_LISTED} imports, newest first` }, next_cursor: { type: 'null' } },
  },
  ExportRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      format: { enum: [...EXPORT_FORMATS], default: 'ndjson' },
      from: { type: ['string', 'null'], format: 'date', description: 'first local day (project time zone) to export; absent: from the first event' },
      to: { type: ['string', 'null'], format: 'date', description: 'last local day to export, included; absent: through the last event' },
    },
  },
  ExportJob: {
    type: 'object',
    required: ['id', 'state', 'format', 'from', 'to', 'events', 'bytes', 'download_url', 'expires_at', 'file_expires_at', 'file_removed_at', 'error', 'created_at', 'started_at', 'finished_at'],
    properties: {
      id: { type: 'integer', format: 'int64' },
      state: {
        enum: [...STATES, 'expired'],
        description: `queued → running → succeeded, failed or cancelled; a succeeded export is expired ${EXPORT_KEPT_MS / 86_400_000} days after it finished, when its file is removed`,
      },
      format: { enum: [...EXPORT_FORMATS] },
      from: { type: ['string', 'null'], format: 'date' },
      to: { type: ['string', 'null'], format: 'date' },
      events: { type: ['integer', 'null'], description: 'events written; null until the job succeeded' },
      bytes: { type: ['integer', 'null'], description: 'size of the file; null until the job succeeded' },
      download_url: {
        type: ['string', 'null'],
        description: `a signed link to the file (no token needed), fresh with every answer and valid ${EXPORT_LINK_TTL_MS / 60_000} minutes; null unless the job succeeded and has not expired`,
      },
      expires_at: time('when download_url stops working'),
      file_expires_at: time(`when the file is removed and the export expires (${EXPORT_KEPT_MS / 86_400_000} days after it finished); null unless it succeeded`),
      file_removed_at: time('when the file was removed; null while it is kept'),
      error: { type: ['string', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
      started_at: time('when the job last started'),
      finished_at: time('null until the job ended'),
    },
  },
  ExportJobList: {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: { items: { type: 'array', maxItems: TRANSFERS_LISTED, items: ref('ExportJob') }, next_cursor: { type: 'null' } },
  },
};

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const jobParam = (name: string): Parameter => ({ name, in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } });
const op = (parameters: Parameter[], o: Omit<Operation, 'tags' | 'security' | 'parameters'>): Operation => ({ ...o, parameters, tags: ['transfer'], security: [{ accessToken: [] }] });

export const transferOpenapi: OpenApiFragment = {
  schemas,
  paths: {
    [IMPORTS]: {
      get: op([projectId], {
        operationId: 'listImports',
        summary: `The latest ${TRANSFERS_LISTED} imports of the project, newest first (admin+)`,
        responses: { '200': jsonResponse('the imports', ref('ImportJobList')), ...errors(401, 403, 404, 429) },
      }),
      post: op(
        [
          projectId,
          { name: 'format', in: 'query', required: true, description: 'how the file is written', schema: { enum: [...IMPORT_FORMATS] } },
          { name: 'name', in: 'query', description: 'the file name shown with the job', schema: { type: 'string', minLength: 1, maxLength: 255 } },
          {
            name: 'map',
            in: 'query',
            description: `csv only: \`column=field\` (repeat the parameter), field one of ${STORED_FIELDS.join(', ')}, \`props.<key>\` or \`ignore\``,
            schema: { type: 'array', maxItems: 200, items: { type: 'string', maxLength: 300 } },
          },
        ],
        {
          operationId: 'startImport',
          summary: 'Import events from an uploaded file, as a background job (admin+)',
          description: `The request body is the file itself (up to ${UPLOAD_MAX_BYTES} bytes), sent with any content type but application/json (application/octet-stream, text/csv, application/x-ndjson, application/zip): PostHog's event export (JSON lines or CSV, gzip allowed), Amplitude's export (a zip of gzipped JSON lines), pp's NDJSON export, or CSV with a column mapping. Events keep their times; an event whose uuid the project holds is not stored again; a bad record is refused with its line number and the rest stored. See docs/migrating.md.`,
          requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          responses: { '202': jsonResponse('the queued import', ref('ImportJob')), ...errors(400, 401, 403, 404, 413, 422, 429) },
        },
      ),
    },
    [IMPORT]: {
      get: op([projectId, jobParam('importID')], {
        operationId: 'getImport',
        summary: 'One import of the project, with its progress (admin+)',
        responses: { '200': jsonResponse('the import', ref('ImportJob')), ...errors(400, 401, 403, 404, 429) },
      }),
      delete: op([projectId, jobParam('importID')], {
        operationId: 'cancelImport',
        summary: 'Cancel an import (admin+): a queued one never starts, a running one stops after its current batch; what it stored stays',
        responses: { '200': jsonResponse('the import', ref('ImportJob')), ...errors(400, 401, 403, 404, 429) },
      }),
    },
    [EXPORTS]: {
      get: op([projectId], {
        operationId: 'listExports',
        summary: `The latest ${TRANSFERS_LISTED} exports of the project, newest first (admin+)`,
        responses: { '200': jsonResponse('the exports', ref('ExportJobList')), ...errors(401, 403, 404, 429) },
      }),
      post: op([projectId], {
        operationId: 'startExport',
        summary: "Export the project's events with every stored field, as a background job (admin+)",
        requestBody: jsonBody(ref('ExportRequest'), false),
        responses: { '202': jsonResponse('the queued export', ref('ExportJob')), ...errors(400, 401, 403, 404, 422, 429) },
      }),
    },
    [EXPORT]: {
      get: op([projectId, jobParam('exportID')], {
        operationId: 'getExport',
        summary: 'One export of the project; once it succeeded, with a fresh signed download link (admin+)',
        responses: { '200': jsonResponse('the export', ref('ExportJob')), ...errors(400, 401, 403, 404, 429) },
      }),
      delete: op([projectId, jobParam('exportID')], {
        operationId: 'cancelExport',
        summary: 'Cancel an export that has not finished (admin+)',
        responses: { '200': jsonResponse('the export', ref('ExportJob')), ...errors(400, 401, 403, 404, 429) },
      }),
    },
    [DOWNLOAD]: {
      get: {
        operationId: 'downloadExport',
        summary: "An export's file, through the signed link its job gives (no token)",
        tags: ['transfer'],
        security: [],
        parameters: [
          projectId,
          jobParam('exportID'),
          { name: 'expires', in: 'query', required: true, schema: { type: 'integer', minimum: 0 } },
          { name: 'signature', in: 'query', required: true, schema: { type: 'string', maxLength: 100 } },
        ],
        responses: {
          '200': { description: 'the file (NDJSON, CSV or Parquet)', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
          ...errors(400, 403, 404, 410, 422, 429),
        },
      },
    },
  },
};
