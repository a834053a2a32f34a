// A project's settings: name, time zone (reports count calendar days in it) and currency (money is
// shown in it), what the project collects (also beside the tracker snippet), how page URLs are
// cleaned for paths, how long recordings are kept and their storage, and, for admins, imports and
// exports of its events, deleting its form data and the project itself.

import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, ok, type Schemas } from '../api/client';
import { loadShell, useSession } from '../app/session';
import { Field, Select, Submit, fieldProblem } from '../ui/forms';
import { Empty, ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';
import { PathCleaningCard } from '../queries/PathCleaningCard';
import { FormPurge } from '../behavior/FormPurge';
import { CollectionSettings } from '../behavior/CollectionSettings';
import { RecordingsCard } from '../replay/RecordingsCard';
import { TransferCard } from '../transfer/TransferCard';

export function ProjectSettings() {
  const projectId = Number(useRoute().params.projectId);
  const { me, projects } = useSession();
  const project = projects?.find((p) => p.id === projectId);
  const isAdmin = me?.org.role === 'admin' || me?.org.role === 'owner';
  if (!project) return <Empty title="No such project in this organization" />;
  return (
    <section aria-labelledby="project-title">
      <div class="page-header">
        <h1 id="project-title">Project settings</h1>
        <span class="muted">
          {project.name} · id {project.id}
        </span>
      </div>
      <GeneralCard project={project} canEdit={isAdmin} />
      <CollectionSettings projectId={projectId} canEdit={isAdmin} />
      <RecordingsCard projectId={projectId} canEdit={isAdmin} />
      <PathCleaningCard projectId={projectId} canEdit={isAdmin} />
      {isAdmin && <TransferCard projectId={projectId} />}
      {isAdmin && <FormPurge projectId={projectId} projectName={project.name} />}
      {isAdmin && <DeleteCard projectId={projectId} name={project.name} />}
    </section>
  );
}

/** ISO 4217 codes this browser knows (and the project's own), each named in the reader's language: "EUR — Euro". */
function currencyChoices(current: string): Array<[string, string]> {
  const names = new Intl.DisplayNames(undefined, { type: 'currency' });
  const codes = new Set([...Intl.supportedValuesOf('currency'), current]);
  return [...codes].sort().map((code) => [code, `${code} — ${names.of(code) ?? code}`]);
}

function GeneralCard({ project, canEdit }: { project: Schemas['Project']; canEdit: boolean }) {
  const [name, setName] = useState(project.name);
  const [timezone, setTimezone] = useState(project.timezone);
  const [currency, setCurrency] = useState(project.currency);
  const [saved, setSaved] = useState(false);
  const { busy, error, handle } = useAction();
  const currencies = useMemo(() => currencyChoices(project.currency), [project.currency]);
  useEffect(() => (setName(project.name), setTimezone(project.timezone), setCurrency(project.currency)), [project.id]);
  const save = handle(async () => {
    setSaved(false);
    await ok(api.PATCH('/api/v1/projects/{id}', { params: { path: { id: project.id } }, body: { name, timezone, currency } }));
    await loadShell();
    setSaved(true);
  });
  return (
    <form class="card form-grid" onSubmit={save} noValidate aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <Field label="Name" value={name} onValue={setName} problem={fieldProblem(error, 'name')} />
      <Field
        label="Time zone"
        value={timezone}
        onValue={setTimezone}
        hint="IANA name such as Europe/Berlin. Daily, weekly and monthly buckets and every date in reports follow it."
        problem={fieldProblem(error, 'timezone')}
      />
      <Select label="Currency" value={currency} onValue={setCurrency} hint="The currency of revenue amounts (props.revenue); every money figure is shown in it. Amounts are never converted.">
        {currencies.map(([code, text]) => (
          <option value={code}>{text}</option>
        ))}
      </Select>
      <ErrorNote error={error && !['name', 'timezone'].some((f) => fieldProblem(error, f)) ? error : undefined} />
      {saved && (
        <p class="notice" role="status">
          Saved.
        </p>
      )}
      {canEdit && (
        <div>
          <Submit busy={busy}>Save</Submit>
        </div>
      )}
    </form>
  );
}

function DeleteCard({ projectId, name }: { projectId: number; name: string }) {
  const { route } = useLocation();
  const [typed, setTyped] = useState('');
  const { busy, error, handle } = useAction();
  const remove = handle(async () => {
    await ok(api.DELETE('/api/v1/projects/{id}', { params: { path: { id: projectId } } }));
    await loadShell();
    route('/', true);
  });
  return (
    <form class="card form-grid danger-zone" onSubmit={remove} noValidate aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the project</h2>
      <p>Its keys and release tokens stop working at once and its events can no longer be read.</p>
      <Field label={`Type the project name (${name}) to confirm`} value={typed} onValue={setTyped} />
      <ErrorNote error={error} />
      <div>
        {typed === name && (
          <Submit variant="danger" busy={busy}>
            Delete {name}
          </Submit>
        )}
      </div>
    </form>
  );
}
