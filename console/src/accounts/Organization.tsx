// The organization: its name and projects, members and their roles, invitations (with the link to
// pass on when the server sends no mail), single sign-on (owners), and the license or, in the
// cloud, the plan.

import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { loadShell, useSession } from '../app/session';
import { ConfirmButton } from '../ui/ConfirmButton';
import { useAsync } from '../ui/useAsync';
import { Field, Select, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { formatDateTime } from '../ui/format';
import { SsoCard } from './SsoCard';
import { LicenseCard } from './LicenseCard';
import { PlanCard } from '../billing/PlanCard';
import { useAction } from '../ui/useAction';
import { ShownOnce } from '../ui/ShownOnce';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

type Role = Schemas['Member']['role'];
const ROLES: Role[] = ['viewer', 'analyst', 'admin', 'owner'];

export function Organization() {
  const { me, billing } = useSession();
  if (!me) return null;
  const isAdmin = me.org.role === 'admin' || me.org.role === 'owner';
  return (
    <section aria-labelledby="org-title">
      <div class="page-header">
        <h1 id="org-title">{me.org.name}</h1>
        <span class="badge">you are {me.org.role}</span>
      </div>
      <ProjectsCard canCreate={isAdmin} />
      {isAdmin ? (
        <>
          <MembersCard orgId={me.org.id} myRole={me.org.role} myId={me.user.id} />
          <InvitesCard orgId={me.org.id} myRole={me.org.role} />
        </>
      ) : (
        <p class="muted">Members and invitations are managed by the organization's admins.</p>
      )}
      {me.org.role === 'owner' && <SsoCard orgId={me.org.id} />}
      {billing ? <PlanCard billing={billing} /> : <LicenseCard />}
    </section>
  );
}

function ProjectsCard({ canCreate }: { canCreate: boolean }) {
  const { projects = [] } = useSession();
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const { busy, error, handle } = useAction();
  const create = handle(async () => {
    await ok(api.POST('/api/v1/projects', { body: { name, timezone } }));
    setName('');
    await loadShell();
  });
  return (
    <div class="card" role="group" aria-labelledby="projects-title">
      <h2 id="projects-title">Projects</h2>
      <Table label="Projects">
        <TableHead columns={['Project', 'Id', 'Time zone', 'Created']} />
        <tbody>
          {projects.map((p) => (
            <tr>
              <td>
                <a href={`/projects/${p.id}`}>{p.name}</a>
              </td>
              <td>{p.id}</td>
              <td>{p.timezone}</td>
              <td>{formatDateTime(p.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      {canCreate && (
        <form class="form-grid inline-form" onSubmit={create} noValidate aria-label="New project">
          <Field label="New project name" value={name} onValue={setName} required problem={fieldProblem(error, 'name')} />
          <Field label="Time zone" value={timezone} onValue={setTimezone} hint="IANA name; calendar days in reports follow it." problem={fieldProblem(error, 'timezone')} />
          <ErrorNote error={error && !['name', 'timezone'].some((f) => fieldProblem(error, f)) ? error : undefined} />
          <div>
            <Submit busy={busy}>Create the project</Submit>
          </div>
        </form>
      )}
    </div>
  );
}

function MembersCard({ orgId, myRole, myId }: { orgId: number; myRole: Role; myId: number }) {
  const members = useAsync(() => ok(api.GET('/api/v1/orgs/{orgID}/members', { params: { path: { orgID: orgId } } })), [orgId]);
  const [error, setError] = useState<Error>();
  const act = async (work: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await work();
      members.reload();
    } catch (err) {
      setError(err as Error);
    }
  };
  const path = (userID: number) => ({ params: { path: { orgID: orgId, userID } } });
  return (
    <div class="card" role="group" aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <ErrorNote error={error ?? members.error} />
      {members.loading && !members.data ? (
        <Loading />
      ) : (
        <Table label="Members">
          <TableHead columns={['Person', 'Role', 'Joined']} actions />
          <tbody>
            {members.data?.items.map((m) => (
              <tr>
                <td>
                  {m.name ? `${m.name} · ` : ''}
                  {m.email}
                </td>
                <td>
                  {m.user_id === myId || (m.role === 'owner' && myRole !== 'owner') ? (
                    m.role
                  ) : (
                    <select
                      aria-label={`Role of ${m.email}`}
                      value={m.role}
                      onChange={(e) =>
                        void act(() => ok(api.PATCH('/api/v1/orgs/{orgID}/members/{userID}', { ...path(m.user_id), body: { role: (e.currentTarget as HTMLSelectElement).value as Role } })))
                      }
                    >
                      {ROLES.filter((r) => r !== 'owner' || myRole === 'owner').map((r) => (
                        <option value={r}>{r}</option>
                      ))}
                    </select>
                  )}
                </td>
                <td>{formatDateTime(m.joined_at)}</td>
                <td class="actions">
                  {m.user_id !== myId && (m.role !== 'owner' || myRole === 'owner') && (
                    <ConfirmButton
                      label="Remove"
                      title={`Remove ${m.email} from the organization?`}
                      confirmLabel="Remove the member"
                      onConfirm={async () => {
                        await ok(api.DELETE('/api/v1/orgs/{orgID}/members/{userID}', path(m.user_id)));
                        members.reload();
                      }}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

function InvitesCard({ orgId, myRole }: { orgId: number; myRole: Role }) {
  const invites = useAsync(() => ok(api.GET('/api/v1/orgs/{orgID}/invites', { params: { path: { orgID: orgId } } })), [orgId]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [link, setLink] = useState<{ email: string; link: string }>();
  const [sent, setSent] = useState<string>();
  const { busy, error, handle, run } = useAction();
  const invite = handle(async () => {
    setLink(undefined);
    setSent(undefined);
    const created = (await ok(api.POST('/api/v1/orgs/{orgID}/invites', { params: { path: { orgID: orgId } }, body: { email, role } }))) as Schemas['Invite'] & { link?: string };
    if (created.link) setLink({ email: created.email, link: created.link });
    else setSent(created.email);
    setEmail('');
    invites.reload();
  });
  const withdraw = (id: number) =>
    run(async () => {
      await ok(api.DELETE('/api/v1/orgs/{orgID}/invites/{inviteID}', { params: { path: { orgID: orgId, inviteID: id } } }));
      invites.reload();
    });
  return (
    <div class="card" role="group" aria-labelledby="invites-title">
      <h2 id="invites-title">Invitations</h2>
      <form class="form-grid inline-form" onSubmit={invite} noValidate aria-label="Invite someone">
        <Field label="Email to invite" type="email" value={email} onValue={setEmail} problem={fieldProblem(error, 'email')} />
        <Select label="Role" value={role} onValue={(v) => setRole(v as Role)}>
          {ROLES.filter((r) => r !== 'owner' || myRole === 'owner').map((r) => (
            <option value={r}>{r}</option>
          ))}
        </Select>
        <div>
          <Submit busy={busy}>Invite</Submit>
        </div>
      </form>
      <ErrorNote error={(error && !fieldProblem(error, 'email') ? error : undefined) ?? invites.error} />
      {sent && (
        <p class="notice" role="status">
          An invitation is on its way to {sent}.
        </p>
      )}
      {link && (
        <ShownOnce value={link.link} testId="invite-link" copyLabel="Copy the link">
          This server sends no email, so pass this link to {link.email} yourself. It works once, for seven days, and is not shown again.
        </ShownOnce>
      )}
      {invites.data && invites.data.items.length > 0 && (
        <Table label="Invitations">
          <TableHead columns={['Email', 'Role', 'Status', 'Expires']} actions />
          <tbody>
            {invites.data.items.map((i) => (
              <tr>
                <td>{i.email}</td>
                <td>{i.role}</td>
                <td>
                  <span class={`badge ${i.status}`}>{i.status}</span>
                </td>
                <td>{formatDateTime(i.expires_at)}</td>
                <td class="actions">
                  {i.status === 'pending' && (i.role !== 'owner' || myRole === 'owner') && (
                    <button type="button" class="button secondary small" onClick={() => void withdraw(i.id)}>
                      Withdraw
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
