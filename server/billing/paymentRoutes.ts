// HTTP for the payment provider's callback (cloud edition): the body is read raw, because the
// signature covers its exact bytes, checked, parsed, validated against the schema and handed to
// payments.ts. Unauthenticated by design; the signature is the credential.

import express, { type RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import type { Services } from '../http/services.js';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../ground/errors.js';
import { receiveProviderEvent, type EventReceipt, type ProviderEvent } from './payments.js';
import { paymentsOpenApi, PROVIDER_EVENTS_PATH } from './paymentsOpenApi.js';
import { SIGNATURE_HEADER, verifyProviderSignature } from './providerSignature.js';
import { other } from '../access/access.js';

export { PROVIDER_EVENTS_PATH };

/** Provider events are small; anything larger is not one. */
export const PROVIDER_EVENT_LIMIT_BYTES = 64 * 1024;

/**
 * Reads the callback's body as bytes; mounted on its path before the JSON parser, which then leaves
 * it alone. Not inflated: the signed bytes are the ones on the wire.
 */
export function providerEventBody(): RequestHandler {
  const raw = express.raw({ type: () => true, limit: PROVIDER_EVENT_LIMIT_BYTES, inflate: false });
  return (req, res, next) => {
    raw(req, res, (err?: unknown) => {
      const tooLarge = typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.too.large';
      next(tooLarge ? new PayloadTooLargeError(PROVIDER_EVENT_LIMIT_BYTES) : err);
    });
  };
}

/** Without a shared secret nobody can sign, so the callback does not exist. */
function callbackConfigured(services: Services): RequestHandler {
  return (req, _res, next) => {
    if (services.config.edition !== 'cloud' || !services.config.billing.webhook_secret) throw new NotFoundError(`${req.path} is not configured on this installation`);
    next();
  };
}

/** 401 unless signed; then the body becomes the parsed JSON the schema check expects. */
function signedBody(services: Services): RequestHandler {
  return (req, _res, next) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    verifyProviderSignature(req.get(SIGNATURE_HEADER), body, {
      secret: services.config.billing.webhook_secret!,
      toleranceSeconds: services.config.billing.webhook_tolerance_seconds,
      now: services.clock.now(),
    });
    try {
      req.body = JSON.parse(body.toString('utf8'));
    } catch {
      throw new BadRequestError('request body is not valid JSON');
    }
    next();
  };
}

export function presentReceipt(receipt: EventReceipt): Record<string, unknown> {
  switch (receipt.kind) {
    case 'duplicate':
      return { received: true, duplicate: true };
    case 'ignored':
      return { received: true, ignored: receipt.reason };
    case 'applied':
      return { received: true, applied: true, status: receipt.subscription.status, plan: receipt.subscription.plan };
  }
}

export const paymentsDomain: Domain = {
  name: 'payments',
  openapi: paymentsOpenApi,
  mount(routes, services) {
    routes.post(PROVIDER_EVENTS_PATH, other('provider_signature', [callbackConfigured(services), signedBody(services)]), (req, res) => {
      res.json(presentReceipt(receiveProviderEvent(services, req.body as ProviderEvent)));
    });
  },
};
