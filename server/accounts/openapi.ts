// The OpenAPI description of the caller's profile, organizations, members, invitations and projects.

import { errors, jsonBody, jsonResponse, ref, type JsonSchema, type OpenApiFragment, type Operation, type Parameter } from '../http/openapi.js';
import { ROLES } from '../access/roles.js';

const ID64: JsonSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const ROLE: JsonSchema = { enum: [...ROLES] };
const NAME: JsonSchema = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' };
const TIMEZONE: JsonSchema = { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin; calendar days in reports follow it' };
const CURRENCY: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 16,
  description: 'ISO 4217 alphabetic code that Intl knows (Intl.supportedValuesOf("currency")), any letter case, stored in capitals; revenue amounts are in it and are never converted',
};

const ORG_ID: Parameter = { name: 'orgID', in: 'path', required: true, schema: ID64 };
const PROJECT_ID: Parameter = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };

const list = (item: string) =>
  ({
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: { items: { type: 'array', items: ref(item) }, next_cursor: { type: 'null', description: 'these lists are short and come whole' } },
  }) as JsonSchema;

function op(tag: string, operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation {
  return { operationId, summary, tags: [tag], ...rest };
}

export const accountsOpenApi: OpenApiFragment = {
  schemas: {
    OrgMembership: {
      type: 'object',
      required: ['id', 'name', 'role'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, role: ROLE },
    },
    Me: {
      type: 'object',
      required: ['user', 'org', 'orgs', 'session_id'],
      properties: {
        user: {
          type: 'object',
          required: ['id', 'email', 'name', 'created_at', 'mfa_enabled', 'password_change_required'],
          properties: {
            id: { type: 'integer' },
            email: { type: 'string' },
            name: { type: ['string', 'null'] },
            created_at: { type: 'string', format: 'date-time' },
            mfa_enabled: { type: 'boolean' },
            password_change_required: { type: 'boolean', description: 'the password was set by someone else (first-start one-time password, operator reset); change it with POST /me/password' },
          },
        },
        org: { ...ref('OrgMembership'), description: "the access token's organization and the caller's role in it" },
        orgs: { type: 'array', items: ref('OrgMembership'), description: 'every organization the caller belongs to (switch with POST /auth/refresh {org_id})' },
        session_id: { type: 'string', format: 'uuid' },
      },
    },
    Organization: {
      type: 'object',
      required: ['id', 'name', 'created_at'],
      properties: { id: { type: 'integer' }, name: { type: 'string' }, created_at: { type: 'string', format: 'date-time' } },
    },
    Member: {
      type: 'object',
      required: ['user_id', 'email', 'name', 'role', 'joined_at'],
      properties: { user_id: { type: 'integer' }, email: { type: 'string' }, name: { type: ['string', 'null'] }, role: ROLE, joined_at: { type: 'string', format: 'date-time' } },
    },
    Invite: {
      type: 'object',
      required: ['id', 'email', 'role', 'status', 'invited_by', 'created_at', 'expires_at', 'accepted_at'],
      properties: {
        id: { type: 'integer' },
        email: { type: 'string' },
        role: ROLE,
        status: { enum: ['pending', 'accepted', 'expired'] },
        invited_by: { type: ['integer', 'null'], description: 'user id of the inviter' },
        created_at: { type: 'string', format: 'date-time' },
        expires_at: { type: 'string', format: 'date-time', description: 'seven days after creation' },
        accepted_at: { type: ['string', 'null'], format: 'date-time' },
      },
    },
    Project: {
      type: 'object',
      required: ['id', 'org_id', 'name', 'timezone', 'currency', 'created_at'],
      properties: {
        id: { type: 'integer', format: 'int32' },
        org_id: { type: 'integer' },
        name: { type: 'string' },
        timezone: { type: 'string' },
        currency: { type: 'string', description: 'ISO 4217 code, e.g. USD: the currency of revenue amounts' },
        created_at: { type: 'string', format: 'date-time' },
      },
    },
  },
  paths: {
    '/api/v1/me': {
      get: op('me', 'getMe', 'The caller: user, current organization and role, all memberships', {
        responses: { '200': jsonResponse('the caller', ref('Me')), ...errors(401, 429) },
      }),
      patch: op('me', 'updateMe', "Change the caller's display name", {
        description: 'The name is trimmed; one that is empty or only spaces is 422. Members lists, invitations and saved insights show the new name at once.',
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['name'], properties: { name: NAME } }),
        responses: { '200': jsonResponse('the caller, with the new name', ref('Me')), ...errors(400, 401, 422, 429) },
      }),
    },
    '/api/v1/orgs/{orgID}': {
      patch: op('orgs', 'updateOrg', 'Rename the organization (admin+)', {
        parameters: [ORG_ID],
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['name'], properties: { name: NAME } }),
        responses: { '200': jsonResponse('the organization', ref('Organization')), ...errors(400, 401, 403, 404, 422, 429) },
      }),
    },
    '/api/v1/orgs/{orgID}/members': {
      get: op('orgs', 'listMembers', 'Members of the organization (admin+)', {
        parameters: [ORG_ID],
        responses: { '200': jsonResponse('members, in joining order', list('Member')), ...errors(400, 401, 403, 404, 429) },
      }),
    },
    '/api/v1/orgs/{orgID}/members/{userID}': {
      patch: op('orgs', 'changeMemberRole', "Change a member's role (admin+; owners only by owners)", {
        description: "Only an owner may change an owner or grant the owner role (else 403). Demoting the last owner is 409 `last_owner`. The new role applies to the member's next request.",
        parameters: [ORG_ID, { name: 'userID', in: 'path', required: true, schema: ID64 }],
        requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['role'], properties: { role: ROLE } }),
        responses: { '200': jsonResponse('the member', ref('Member')), ...errors(400, 401, 403, 404, 409, 422, 429) },
      }),
      delete: op('orgs', 'removeMember', 'Remove a member (admin+; owners only by owners)', {
        description: "The removed member's next request is 401. Removing the last owner is 409 `last_owner`.",
        parameters: [ORG_ID, { name: 'userID', in: 'path', required: true, schema: ID64 }],
        responses: { '204': { description: 'removed' }, ...errors(400, 401, 403, 404, 409, 429) },
      }),
    },
    '/api/v1/orgs/{orgID}/invites': {
      post: op('orgs', 'createInvite', 'Invite someone by email (admin+; only an owner invites an owner)', {
        description:
          'Emails a link `{base_url}/invite?token=…` valid seven days. An open invitation of the same address is replaced. A current member is 409. ' +
          'When the server sends no mail (no `smtp_url`: messages wait in the outbox), the answer also carries that `link`, for the admin to pass on; ' +
          'otherwise the token is never returned.',
        parameters: [ORG_ID],
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['email', 'role'],
          properties: { email: { type: 'string', format: 'email', maxLength: 254 }, role: ROLE },
        }),
        responses: {
          '201': jsonResponse('the invitation', {
            allOf: [ref('Invite'), { type: 'object', properties: { link: { type: 'string', description: 'the accept link; only when the server sends no mail' } } }],
          }),
          ...errors(400, 401, 403, 404, 409, 422, 429),
        },
      }),
      get: op('orgs', 'listInvites', 'Invitations of the organization that were not withdrawn, newest first (admin+)', {
        parameters: [ORG_ID],
        responses: { '200': jsonResponse('invitations', list('Invite')), ...errors(400, 401, 403, 404, 429) },
      }),
    },
    '/api/v1/orgs/{orgID}/invites/{inviteID}': {
      delete: op('orgs', 'revokeInvite', 'Withdraw an invitation not yet accepted (admin+; an owner invitation only by an owner)', {
        description: 'The link then answers 404.',
        parameters: [ORG_ID, { name: 'inviteID', in: 'path', required: true, schema: ID64 }],
        responses: { '204': { description: 'withdrawn' }, ...errors(400, 401, 403, 404, 429) },
      }),
    },
    '/api/v1/projects': {
      get: op('projects', 'listProjects', "Projects of the caller's organization (viewer+)", {
        responses: { '200': jsonResponse('projects', list('Project')), ...errors(401, 429) },
      }),
      post: op('projects', 'createProject', 'Create a project (admin+)', {
        requestBody: jsonBody({
          type: 'object',
          additionalProperties: false,
          required: ['name'],
          properties: { name: NAME, timezone: { ...TIMEZONE, default: 'UTC' }, currency: { ...CURRENCY, default: 'USD' } },
        }),
        responses: { '201': jsonResponse('the project', ref('Project')), ...errors(401, 403, 422, 429) },
      }),
    },
    '/api/v1/projects/{id}': {
      get: op('projects', 'getProject', 'One project (viewer+)', {
        parameters: [PROJECT_ID],
        responses: { '200': jsonResponse('the project', ref('Project')), ...errors(400, 401, 404, 429) },
      }),
      patch: op('projects', 'updateProject', 'Rename a project or change its time zone or currency (admin+)', {
        parameters: [PROJECT_ID],
        requestBody: jsonBody({ type: 'object', additionalProperties: false, minProperties: 1, properties: { name: NAME, timezone: TIMEZONE, currency: CURRENCY } }),
        responses: { '200': jsonResponse('the project', ref('Project')), ...errors(400, 401, 403, 404, 422, 429) },
      }),
      delete: op('projects', 'deleteProject', 'Delete a project (owner)', {
        description: 'The project and everything under it stop being reachable at once; its id is never reused.',
        parameters: [PROJECT_ID],
        responses: { '204': { description: 'deleted' }, ...errors(400, 401, 403, 404, 429) },
      }),
    },
  },
};
