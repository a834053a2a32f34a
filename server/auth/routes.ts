// HTTP for the authentication group (register and its trial-first verify family, login, refresh, bootstrap, logout, password reset,
// invitation accept) and for the caller's own password, sessions and MFA enrolment. Logic lives in the modules
// named by each import; handlers parse, call and present.

import type { Response } from 'express';
import type { Domain } from '../http/domain.js';
import type { Services } from '../http/services.js';
import { NotFoundError } from '../ground/errors.js';
import { getUser } from '../accounts/users.js';
import { authOpenApi } from './openapi.js';
import { other, self, type Access } from '../access/access.js';
import { authIpLimit, refreshIpLimit, spendEmailBudget } from './authLimits.js';
import { requireAllowedOrigin } from './originCheck.js';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refreshCookie.js';
import { endSessionOfToken } from './refreshTokens.js';
import { registerAccount, signInOptions } from './register.js';
import { login, type SignInOutcome } from './login.js';
import { refreshSession } from './refreshSession.js';
import { bootstrapSections } from '../http/bootstrapSections.js';
import { resetPassword, schedulePasswordReset } from './passwordResets.js';
import { acceptInvite, lookupInvite } from './invites.js';
import { clientOf, signIn, type SignedIn } from './signIn.js';
import { listLiveSessions, revokeOwnSession, type Session } from './sessions.js';
import { beginMfaSetup, disableMfa, enableMfa } from '../accounts/mfa.js';
import { changePassword } from './passwordChange.js';
import { startTrialSignup } from './signup/startSignup.js';
import { isTrialFirst, mountSignupRoutes } from './signup/signupRoutes.js';

function sendSignedIn(res: Response, services: Services, status: number, signedIn: SignedIn, extra: Record<string, unknown> = {}): void {
  setRefreshCookie(res, services.config, signedIn.refreshToken);
  res.status(status).json({ ...signedIn.body, ...extra });
}

function sendOutcome(res: Response, services: Services, outcome: SignInOutcome): void {
  if (outcome.mfaRequired) res.status(200).json({ mfa_required: true });
  else sendSignedIn(res, services, 200, outcome.signedIn);
}

function presentSession(s: Session, currentId: string) {
  return { id: s.id, created_at: s.created_at, last_seen_at: s.last_seen_at, user_agent: s.user_agent, ip: s.ip, current: s.id === currentId };
}

export const authDomain: Domain = {
  name: 'auth',
  openapi: authOpenApi,
  mount(routes, services) {
    const signInGroup: Access = other('none', [authIpLimit(services)]);
    const cookieGroup: Access = other('refresh_cookie', [refreshIpLimit(services), requireAllowedOrigin(services)]);
    const signedIn = self();

    routes.get('/api/v1/auth/options', signInGroup, (_req, res) => {
      res.json(signInOptions(services));
    });

    routes.post('/api/v1/auth/register', signInGroup, async (req, res) => {
      spendEmailBudget(services, req.body.email);
      if (isTrialFirst(services)) {
        res.status(202).json(await startTrialSignup(services, req.body, clientOf(req)));
        return;
      }
      const { user, org } = await registerAccount(services, req.body);
      sendSignedIn(res, services, 201, await signIn(services, user, org, clientOf(req)));
    });

    mountSignupRoutes(routes, services, signInGroup);

    routes.post('/api/v1/auth/login', signInGroup, async (req, res) => {
      spendEmailBudget(services, req.body.email);
      sendOutcome(res, services, await login(services, req.body, clientOf(req)));
    });

    routes.post('/api/v1/auth/refresh', cookieGroup, async (req, res) => {
      sendSignedIn(res, services, 200, await refreshSession(services, readRefreshCookie(req), req.body.org_id, clientOf(req)));
    });

    routes.post('/api/v1/auth/bootstrap', cookieGroup, async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const signedIn = await refreshSession(services, readRefreshCookie(req), req.body.org_id, clientOf(req));
      sendSignedIn(res, services, 200, signedIn, bootstrapSections(services, { userId: signedIn.body.user.id, orgId: signedIn.body.org.id }));
    });

    routes.post('/api/v1/auth/logout', cookieGroup, (req, res) => {
      endSessionOfToken(services, readRefreshCookie(req));
      clearRefreshCookie(res, services.config);
      res.status(204).end();
    });

    routes.post('/api/v1/auth/password/forgot', signInGroup, (req, res) => {
      spendEmailBudget(services, req.body.email);
      schedulePasswordReset(services, req.body.email);
      res.status(204).end();
    });

    routes.post('/api/v1/auth/password/reset', signInGroup, async (req, res) => {
      await resetPassword(services, req.body.token, req.body.password);
      res.status(204).end();
    });

    // The token travels in the body, not the address, so it stays out of request logs.
    routes.post('/api/v1/auth/invite/lookup', signInGroup, (req, res) => {
      res.json(lookupInvite(services, req.body.token));
    });

    routes.post('/api/v1/auth/invite/accept', signInGroup, async (req, res) => {
      sendOutcome(res, services, await acceptInvite(services, req.body, clientOf(req)));
    });

    routes.get('/api/v1/me/sessions', signedIn, (req, res) => {
      const items = listLiveSessions(services, req.auth!.userId).map((s) => presentSession(s, req.auth!.sessionId));
      res.json({ items, next_cursor: null });
    });

    routes.delete('/api/v1/me/sessions/{sessionID}', signedIn, (req, res) => {
      if (!revokeOwnSession(services, req.auth!.userId, String(req.valid.params.sessionID))) throw new NotFoundError('session not found');
      res.status(204).end();
    });

    routes.post('/api/v1/me/password', signedIn, async (req, res) => {
      const { userId, sessionId } = req.auth!;
      // Guessing the current password spends the same per-account budget as signing in.
      spendEmailBudget(services, getUser(services.meta, userId)!.email);
      await changePassword(services, { userId, sessionId, currentPassword: req.body.current_password, newPassword: req.body.new_password });
      res.status(204).end();
    });

    routes.post('/api/v1/me/mfa/setup', signedIn, (req, res) => {
      res.json(beginMfaSetup(services, getUser(services.meta, req.auth!.userId)!));
    });

    routes.post('/api/v1/me/mfa/enable', signedIn, (req, res) => {
      res.json({ recovery_codes: enableMfa(services, req.auth!.userId, req.body.code) });
    });

    routes.post('/api/v1/me/mfa/disable', signedIn, (req, res) => {
      disableMfa(services, req.auth!.userId, req.body.code);
      res.status(204).end();
    });
  },
};
