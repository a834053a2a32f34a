// HTTP for the caller's profile, the organization (name, members, invitations) and its projects. Every
// route declares its access (server/access/): role and tenancy are checked before it runs; the rules come from members.ts,
// invites.ts and projects.ts.

import type { Domain } from '../http/domain.js';
import { mfaEnabled } from './mfa.js';
import { createInvite, listInvites, revokeInvite, type Invite } from './invites.js';
import { member, org, project, self } from '../access/access.js';
import { accountsOpenApi } from './openapi.js';
import { getUser, passwordChangeRequired, setUserName } from './users.js';
import { listMembers, listUserOrgs, renameOrganization, type Member } from './organizations.js';
import { changeMemberRole, removeMember } from './members.js';
import { queueSweep } from '../store/replaySweep.js';
import { createProject, deleteProject, listProjects, normalizeCurrency, normalizeTimeZone, updateProject, type Project } from './projects.js';

const presentProject = (p: Project) => ({ id: p.id, org_id: p.org_id, name: p.name, timezone: p.timezone, currency: p.currency, created_at: p.created_at });
const presentMember = (m: Member) => ({ user_id: m.user_id, email: m.email, name: m.name, role: m.role, joined_at: m.created_at });
const presentInvite = (i: Invite) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  status: i.status,
  invited_by: i.invited_by,
  created_at: i.created_at,
  expires_at: i.expires_at,
  accepted_at: i.accepted_at,
});

export const accountsDomain: Domain = {
  name: 'accounts',
  openapi: accountsOpenApi,
  mount(routes, services) {
    const db = services.meta;
    const actor = (req: import('express').Request) => ({ userId: req.auth!.userId, role: req.auth!.role });

    const presentMe = (auth: NonNullable<import('express').Request['auth']>) => {
      const { userId, orgId, role, sessionId } = auth;
      const user = getUser(db, userId)!;
      const orgs = listUserOrgs(db, userId);
      return {
        user: { id: user.id, email: user.email, name: user.name, created_at: user.created_at, mfa_enabled: mfaEnabled(services, userId), password_change_required: passwordChangeRequired(db, userId) },
        org: { ...orgs.find((o) => o.id === orgId)!, role },
        orgs,
        session_id: sessionId,
      };
    };

    routes.get('/api/v1/me', self(), (req, res) => {
      res.json(presentMe(req.auth!));
    });

    routes.patch('/api/v1/me', self(), (req, res) => {
      setUserName(db, req.auth!.userId, req.body.name.trim());
      res.json(presentMe(req.auth!));
    });

    routes.patch('/api/v1/orgs/{orgID}', org('admin'), (req, res) => {
      res.json(renameOrganization(db, req.auth!.orgId, req.body.name.trim()));
    });

    routes.get('/api/v1/orgs/{orgID}/members', org('admin'), (req, res) => {
      res.json({ items: listMembers(db, req.auth!.orgId).map(presentMember), next_cursor: null });
    });

    routes.patch('/api/v1/orgs/{orgID}/members/{userID}', org('admin'), (req, res) => {
      res.json(presentMember(changeMemberRole(services, req.auth!.orgId, actor(req), Number(req.valid.params.userID), req.body.role)));
    });

    routes.delete('/api/v1/orgs/{orgID}/members/{userID}', org('admin'), (req, res) => {
      removeMember(services, req.auth!.orgId, actor(req), Number(req.valid.params.userID));
      res.status(204).end();
    });

    routes.post('/api/v1/orgs/{orgID}/invites', org('admin'), (req, res) => {
      const created = createInvite(services, { orgId: req.auth!.orgId, email: req.body.email, role: req.body.role, actor: actor(req) });
      // Without SMTP the email waits in the outbox: the admin who invites is given the link to pass on.
      res.status(201).json({ ...presentInvite(created.invite), ...(services.config.smtp_url ? {} : { link: created.link }) });
    });

    routes.get('/api/v1/orgs/{orgID}/invites', org('admin'), (req, res) => {
      res.json({ items: listInvites(services, req.auth!.orgId).map(presentInvite), next_cursor: null });
    });

    routes.delete('/api/v1/orgs/{orgID}/invites/{inviteID}', org('admin'), (req, res) => {
      revokeInvite(services, req.auth!.orgId, Number(req.valid.params.inviteID), req.auth!.role);
      res.status(204).end();
    });

    routes.get('/api/v1/projects', member(), (req, res) => {
      res.json({ items: listProjects(db, req.auth!.orgId).map(presentProject), next_cursor: null });
    });

    routes.post('/api/v1/projects', member('admin'), (req, res) => {
      const timezone = normalizeTimeZone(req.body.timezone);
      const currency = normalizeCurrency(req.body.currency);
      const project = createProject(db, { orgId: req.auth!.orgId, name: req.body.name.trim(), timezone, currency }, services.clock.now());
      res.status(201).json(presentProject(project));
    });

    routes.get('/api/v1/projects/{id}', project('viewer'), (req, res) => {
      res.json(presentProject(req.project!));
    });

    routes.patch('/api/v1/projects/{id}', project('admin'), (req, res) => {
      const timezone = req.body.timezone === undefined ? undefined : normalizeTimeZone(req.body.timezone);
      const currency = req.body.currency === undefined ? undefined : normalizeCurrency(req.body.currency);
      res.json(presentProject(updateProject(db, req.project!.id, { name: req.body.name?.trim(), timezone, currency })));
    });

    routes.delete('/api/v1/projects/{id}', project('owner'), (req, res) => {
      deleteProject(db, req.project!.id, services.clock.now());
      // Its recordings go with it, in the background.
      queueSweep(services);
      res.status(204).end();
    });
  },
};
