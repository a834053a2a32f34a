// The OpenAPI description of the marketing-email opt-out by emailed token (cloud edition). The
// one-click form post of RFC 8058 is described beside the JSON body; only the JSON body is checked,
// since the form carries nothing but `List-Unsubscribe=One-Click`.

import { errors, jsonResponse, type JsonSchema, type OpenApiFragment, type Operation, type Parameter } from '../http/openapi.js';

export const UNSUBSCRIBE_PATH = '/api/v1/email/unsubscribe';
export const RESUBSCRIBE_PATH = '/api/v1/email/resubscribe';

const TOKEN: JsonSchema = { type: 'string', minLength: 1, maxLength: 200, description: 'the token of the link in the email' };
const TOKEN_BODY: JsonSchema = { type: 'object', additionalProperties: false, properties: { token: TOKEN } };
const EMAIL_MASKED: JsonSchema = { type: 'string', description: 'first letter of the address, three asterisks, then the domain: `a***@example.com`' };

/** `{<flag>: …, email_masked}`: the answer of each operation. */
const maskedAnswer = (description: string, flag: 'subscribed' | 'unsubscribed', value: JsonSchema) =>
  jsonResponse(description, { type: 'object', required: [flag, 'email_masked'], properties: { [flag]: value, email_masked: EMAIL_MASKED } });

const tokenParam = (required: boolean): Parameter => ({ name: 'token', in: 'query', required, schema: TOKEN });

const UNIFORM =
  'A malformed or forged token, one of another installation and one of a deleted user are the same 422 on `token`. ' +
  'Tokens do not expire. No access token; limited per client address. Outside edition=cloud the operation is 404.';

function op(operationId: string, summary: string, rest: Partial<Operation> & { responses: Record<string, unknown> }): Operation {
  return { operationId, summary, description: UNIFORM, tags: ['email'], security: [], ...rest };
}

export const unsubscribeOpenApi: OpenApiFragment = {
  paths: {
    [UNSUBSCRIBE_PATH]: {
      get: op('emailSubscriptionState', 'Whether the user of an unsubscribe token receives marketing email', {
        parameters: [tokenParam(true)],
        responses: {
          '200': maskedAnswer('the state', 'subscribed', { type: 'boolean' }),
          ...errors(404, 422, 429),
        },
      }),
      post: op('unsubscribeEmail', 'Stop marketing email (trial reminders) to the user of the token', {
        description:
          'The token comes in the query (`?token=`, as in the `List-Unsubscribe` header, including the one-click form post ' +
          '`List-Unsubscribe=One-Click` of RFC 8058) or in a JSON body `{token}`. Repeating it is harmless (200 again). ' +
          UNIFORM,
        parameters: [tokenParam(false)],
        requestBody: {
          required: false,
          content: {
            'application/json': { schema: TOKEN_BODY },
            'application/x-www-form-urlencoded': {
              schema: { type: 'object', properties: { 'List-Unsubscribe': { const: 'One-Click' } }, description: 'one-click unsubscribe from a mail client; the token is in the query' },
            },
          },
        },
        responses: {
          '200': maskedAnswer('unsubscribed', 'unsubscribed', { const: true }),
          ...errors(404, 422, 429),
        },
      }),
    },
    [RESUBSCRIBE_PATH]: {
      post: op('resubscribeEmail', 'Receive marketing email again, undoing an unsubscribe', {
        requestBody: { required: true, content: { 'application/json': { schema: { ...TOKEN_BODY, required: ['token'] } } } },
        responses: {
          '200': maskedAnswer('subscribed again', 'subscribed', { const: true }),
          ...errors(404, 422, 429),
        },
      }),
    },
  },
};
