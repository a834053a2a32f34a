// What a project collects, beside the tracker snippet and in the project settings: page views
// always, each autocapture kind with what it unlocks, the privacy mode, and which query parameters
// of page URLs are kept. Admins and owners switch them (the behavior settings route saves each
// change at once and the page confirms it); everyone else reads them.

import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError, api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { Field, Select, Submit } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { useAction } from '../ui/useAction';
import './behavior.css';

type Settings = Schemas['BehaviorSettings'];
type Kind = 'autocapture_clicks' | 'autocapture_scroll' | 'autocapture_forms' | 'autocapture_sections' | 'autocapture_hover_intent' | 'diagnostics_enabled' | 'replay_enabled' | 'store_client_address';

const KINDS: ReadonlyArray<{ key: Kind; label: string; unlocks: string }> = [
  { key: 'autocapture_clicks', label: 'Clicks', unlocks: 'click heatmaps and click maps, rage and dead clicks, labeled-event rules on clicks' },
  { key: 'autocapture_scroll', label: 'Scroll depth', unlocks: 'how far each page is read, in the page report' },
  { key: 'autocapture_forms', label: 'Forms', unlocks: 'form analytics (starts, submits, abandonment, field drop-off) and labeled-event rules on form submits; never the values typed' },
  { key: 'autocapture_sections', label: 'Sections', unlocks: 'which sections of a page were seen (pp.section_view), for funnels and segmentation' },
  { key: 'autocapture_hover_intent', label: 'Hover intent', unlocks: 'where the pointer rested before a click or instead of one (pp.hover_intent)' },
  { key: 'diagnostics_enabled', label: 'Diagnostics', unlocks: 'JavaScript errors and web vitals of each page' },
  { key: 'replay_enabled', label: 'Session recordings', unlocks: 'session replay; inputs are always masked' },
  { key: 'store_client_address', label: 'Client addresses', unlocks: 'the address each event came from, stored as props.$ip (off: only its country is kept)' },
];

const CAMPAIGN = 'utm_source, utm_medium, utm_campaign, utm_term, utm_content, gclid, fbclid, msclkid';

/** A 422 on the allow-list or one of its names (`url_query_allowlist[2]`), for the field. */
const allowlistProblem = (error?: Error) =>
  error instanceof ApiError && error.code === 'validation_failed' && String(error.details.field ?? '').startsWith('url_query_allowlist') ? error.message : undefined;

/** The names typed, split at commas, spaces and new lines. */
const namesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export function CollectionSettings({ projectId, canEdit }: { projectId: number; canEdit: boolean }) {
  const path = { params: { path: { id: projectId } } };
  const stored = useAsync(() => ok(api.GET('/api/v1/projects/{id}/behavior/settings', path)), [projectId]);
  const [saved, setSaved] = useState<string>();
  // The settings the last change answered with: a switch shows its new state with the confirmation, not after a second read.
  const [changed, setChanged] = useState<{ projectId: number; settings: Settings }>();
  const { error, run } = useAction();
  const patch = (change: Partial<Settings>, done: string) =>
    run(async () => {
      setSaved(undefined);
      const settings = await ok(api.PATCH('/api/v1/projects/{id}/behavior/settings', { ...path, body: change }));
      setChanged({ projectId, settings });
      setSaved(done);
    });
  const s = changed?.projectId === projectId ? changed.settings : stored.data;
  const on = s ? KINDS.filter((k) => s[k.key]) : [];
  return (
    <section class="card" aria-labelledby="collect-title" data-testid="collection">
      <h2 id="collect-title">What this project collects</h2>
      <ErrorNote error={(error && !allowlistProblem(error) ? error : undefined) ?? stored.error} />
      {!s ? (
        <Loading />
      ) : (
        <>
          <p data-testid="collection-summary">
            Page views, always: pages, paths, funnels and labeled-event rules on page views.{' '}
            {on.length === 0 ? 'Nothing else: every autocapture kind is off.' : `Also: ${on.map((k) => k.label.toLowerCase()).join(', ')}.`} Privacy mode <strong>{s.privacy_mode}</strong>
            {s.privacy_mode === 'strict' ? ': no element text or titles in events, all text masked in recordings.' : ': element text and titles are kept.'}
          </p>
          <ul class="collect-kinds">
            {KINDS.map((kind) => (
              <KindRow kind={kind} on={Boolean(s[kind.key])} canEdit={canEdit} onSwitch={(next) => void patch({ [kind.key]: next }, `${kind.label} ${next ? 'switched on' : 'switched off'}.`)} />
            ))}
          </ul>
          {canEdit && (
            <div class="form-grid">
              <Select
                label="Privacy mode"
                value={s.privacy_mode}
                onValue={(v) => void patch({ privacy_mode: v as Settings['privacy_mode'] }, `Privacy mode set to ${v}.`)}
                hint="Strict keeps element text and titles out of events and masks all text in recordings."
              >
                <option value="strict">strict</option>
                <option value="standard">standard</option>
              </Select>
            </div>
          )}
          <QueryStrings settings={s} canEdit={canEdit} error={error} onSave={(change, done) => patch(change, done)} />
          {saved && (
            <p class="notice" role="status">
              Saved. {saved}
            </p>
          )}
        </>
      )}
    </section>
  );
}

function KindRow({ kind, on, canEdit, onSwitch }: { kind: (typeof KINDS)[number]; on: boolean; canEdit: boolean; onSwitch(next: boolean): void }) {
  const id = useId();
  if (!canEdit) {
    return (
      <li>
        <strong>{kind.label}</strong>: {on ? 'on' : 'off'} <span class="muted">— unlocks {kind.unlocks}</span>
      </li>
    );
  }
  return (
    <li>
      <label class="check">
        <input type="checkbox" role="switch" checked={on} aria-describedby={id} onChange={(e) => onSwitch((e.currentTarget as HTMLInputElement).checked)} />
        <strong>{kind.label}</strong>
      </label>
      <div class="muted collect-unlocks" id={id}>
        Unlocks {kind.unlocks}.
      </div>
    </li>
  );
}

function QueryStrings({ settings, canEdit, error, onSave }: { settings: Settings; canEdit: boolean; error?: Error; onSave(change: Partial<Settings>, done: string): Promise<void> }) {
  const stored = settings.url_query_allowlist.join(', ');
  const [names, setNames] = useState(stored);
  // The field follows the saved list when it changes, never over what is being typed before then.
  const shown = useRef(stored);
  useEffect(() => {
    if (shown.current === stored) return;
    shown.current = stored;
    setNames(stored);
  }, [stored]);
  const listed = settings.url_query_allowlist.length > 0 ? ` and ${settings.url_query_allowlist.join(', ')}` : '';
  const rule = settings.url_query_strip
    ? `Query strings of page and referrer URLs are stripped when events arrive, except ${CAMPAIGN}${listed}.`
    : 'Query strings of page and referrer URLs are stored whole.';
  return (
    <div class="collect-query" role="group" aria-labelledby="query-title">
      <h3 id="query-title">Query strings</h3>
      <p data-testid="query-rule">{rule}</p>
      {canEdit && (
        <>
          <label class="check">
            <input
              type="checkbox"
              role="switch"
              checked={settings.url_query_strip === false}
              onChange={(e) =>
                void onSave(
                  { url_query_strip: !(e.currentTarget as HTMLInputElement).checked },
                  (e.currentTarget as HTMLInputElement).checked ? 'Full query strings are kept.' : 'Query strings are stripped.',
                )
              }
            />
            <strong>Keep full query strings</strong>
          </label>
          <form
            class="form-grid"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void onSave({ url_query_allowlist: namesOf(names) }, 'Allowed parameters saved.');
            }}
          >
            <Field
              label="Also keep these parameters"
              value={names}
              onValue={setNames}
              hint="Parameter names, separated by commas or spaces, e.g. page, q. Compared exactly, once decoded."
              problem={allowlistProblem(error)}
            />
            <div>
              <Submit variant="secondary">Keep these parameters</Submit>
            </div>
          </form>
        </>
      )}
    </div>
  );
}
