// "Pick an element on your site": the console asks for a picker token, opens the site with the
// token and its nonce in the address (the tracker there loads its picker), and asks every 1.5 s
// whether an element was picked, until one was or the token expired. The picked element fills the
// editor's fields and is shown for confirmation. The site's address is remembered per project.

import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { formatDateTime } from '../ui/format';
import { Field } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { pickerCapture, pickerToken, type PickerCapture, type PickerToken } from './labeledApi';

const POLL_MS = 1500;

type Phase =
  | { name: 'idle' }
  | { name: 'starting' }
  | { name: 'waiting'; token: PickerToken; pageUrl: string; blocked: boolean }
  | { name: 'expired' }
  | { name: 'picked'; capture: PickerCapture }
  | { name: 'off' };

const siteKey = (projectId: number) => `pp.picker-site.${projectId}`;

function remembered(projectId: number): string {
  try {
    return localStorage.getItem(siteKey(projectId)) ?? '';
  } catch {
    return '';
  }
}

function remember(projectId: number, site: string): void {
  try {
    localStorage.setItem(siteKey(projectId), site);
  } catch {
    // Storage may be unavailable (private windows, quotas): the address is simply asked again.
  }
}

/** The site's address with the picker's parameters, or undefined when it is not an http(s) URL. */
export function pickerUrl(site: string, token: PickerToken): string | undefined {
  let url: URL;
  try {
    url = new URL(site.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.searchParams.set('pp_picker_token', token.token);
  url.searchParams.set('pp_picker_nonce', token.nonce);
  return url.toString();
}

const isSiteUrl = (site: string) => pickerUrl(site, { token: '', nonce: '', expires_at: '' }) !== undefined;

export function Picker({ projectId, onPicked }: { projectId: number; onPicked(capture: PickerCapture): void }) {
  const [site, setSite] = useState(() => remembered(projectId));
  const [siteProblem, setSiteProblem] = useState<string>();
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const [error, setError] = useState<Error>();

  useEffect(() => {
    if (phase.name !== 'waiting') return;
    const { token } = phase;
    const timer = setTimeout(() => {
      pickerCapture(projectId, token.token).then(
        (answer) => {
          setError(undefined);
          if (answer.ready) {
            setPhase({ name: 'picked', capture: answer });
            onPicked(answer);
          } else if (Date.parse(answer.expires_at) <= Date.now()) setPhase({ name: 'expired' });
          else setPhase({ ...phase });
        },
        (err: Error) => {
          if (err instanceof ApiError && err.status === 404) setPhase({ name: 'expired' });
          else if (err instanceof ApiError && err.status === 501) setPhase({ name: 'off' });
          else setError(err), setPhase({ ...phase });
        },
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  const start = async () => {
    setError(undefined);
    if (!isSiteUrl(site)) {
      setSiteProblem('Enter the full address of a page of your site, starting with https://');
      return;
    }
    setSiteProblem(undefined);
    remember(projectId, site.trim());
    // Opened now, while the click still counts as the user's: a window opened after the token
    // arrives would be taken for a pop-up and blocked.
    const win = window.open('about:blank', '_blank');
    if (win) win.opener = null;
    setPhase({ name: 'starting' });
    try {
      const token = await pickerToken(projectId);
      const pageUrl = pickerUrl(site, token)!;
      if (win) win.location.href = pageUrl;
      setPhase({ name: 'waiting', token, pageUrl, blocked: !win });
    } catch (err) {
      win?.close();
      if (err instanceof ApiError && err.status === 501) setPhase({ name: 'off' });
      else setError(err as Error), setPhase({ name: 'idle' });
    }
  };

  if (phase.name === 'off') {
    return (
      <div class="card labeled-picker" role="group" aria-labelledby="picker-title">
        <h2 id="picker-title">Pick an element on your site</h2>
        <p class="notice" role="status" data-testid="picker-off">
          The element picker is turned off on this installation. Write the selector by hand, or ask an operator to set <code>picker_enabled</code>.
        </p>
      </div>
    );
  }
  return (
    <div class="card labeled-picker" role="group" aria-labelledby="picker-title">
      <h2 id="picker-title">Pick an element on your site</h2>
      <p class="muted">Opens your site in a new tab, where the tracker (0.6.5 or later, with this project's browser token) highlights elements; click the one this rule is about and come back here.</p>
      <Field label="Your site's address" type="url" value={site} onValue={setSite} placeholder="https://www.example.com/pricing" problem={siteProblem} />
      <div class="filter-add">
        <button type="button" class="button secondary" disabled={phase.name === 'starting' || phase.name === 'waiting'} onClick={() => void start()}>
          {phase.name === 'picked' ? 'Pick another element' : 'Pick an element'}
        </button>
        {phase.name === 'waiting' && (
          <button type="button" class="button secondary" onClick={() => setPhase({ name: 'idle' })}>
            Stop waiting
          </button>
        )}
      </div>
      <ErrorNote error={error} />
      {phase.name === 'starting' && (
        <p class="muted" role="status">
          Opening your site…
        </p>
      )}
      {phase.name === 'waiting' && (
        <p class="notice" role="status" data-testid="picker-waiting">
          {phase.blocked ? 'The browser blocked the new tab: ' : 'Waiting for your click on your site. '}
          <a href={phase.pageUrl} target="_blank" rel="noopener noreferrer">
            {phase.blocked ? 'open your site' : 'Open your site again'}
          </a>
          . The picking session ends at {formatDateTime(phase.token.expires_at)}.
        </p>
      )}
      {phase.name === 'expired' && (
        <div class="error-note" role="alert" data-testid="picker-expired">
          The picking session expired before an element was picked.{' '}
          <button type="button" class="button secondary small" onClick={() => void start()}>
            Try again
          </button>
        </div>
      )}
      {phase.name === 'picked' && <PickedElement capture={phase.capture} />}
    </div>
  );
}

/** What was picked, to check it is the element meant before saving. */
function PickedElement({ capture }: { capture: PickerCapture }) {
  const el = capture.element;
  return (
    <div class="notice" role="status" data-testid="picked-element">
      <p class="labeled-picked-title">Picked. The selector, the URL pattern and, for a click, the text above were filled in from it: check them before saving.</p>
      <dl class="facts">
        <dt>Element</dt>
        <dd>
          <code data-testid="picked-tag">{el?.tag ?? '—'}</code>
        </dd>
        <dt>Id</dt>
        <dd data-testid="picked-id">{el?.id || '—'}</dd>
        <dt>Classes</dt>
        <dd data-testid="picked-classes">{el?.classes?.length ? el.classes.join(' ') : '—'}</dd>
        <dt>Text</dt>
        <dd data-testid="picked-text">{capture.text || '—'}</dd>
        <dt>Selector</dt>
        <dd>
          <code data-testid="picked-selector">{capture.selector ?? '—'}</code>
        </dd>
        <dt>Page</dt>
        <dd class="url-text">{capture.url ?? '—'}</dd>
      </dl>
    </div>
  );
}
