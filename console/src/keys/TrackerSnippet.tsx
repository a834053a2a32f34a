// The tag to paste into a site: this server's tracker version, pinned with the integrity value
// from that version's manifest, and the key just issued (or a placeholder).

import { useAsync } from '../ui/useAsync';
import { ErrorNote, Loading } from '../ui/states';
import { CopyButton } from '../ui/CopyButton';

declare const __TRACKER_VERSION__: string;

interface Manifest {
  version: string;
  assets: { core: { file: string; integrity: string } };
}

export function TrackerSnippet({ browserKey }: { browserKey?: string }) {
  const manifest = useAsync(async () => {
    const response = await fetch(`/v1/sdk/browser/${__TRACKER_VERSION__}/manifest.json`);
    if (!response.ok) throw new Error(`The tracker manifest could not be read (${response.status}).`);
    return (await response.json()) as Manifest;
  }, []);
  const host = location.origin;
  const key = browserKey ?? 'pp_bt_…';
  const m = manifest.data;
  const snippet = m
    ? `<script src="${host}/v1/sdk/browser/${m.version}/${m.assets.core.file}" integrity="${m.assets.core.integrity}" crossorigin="anonymous"></script>\n<script>pp.init({ key: "${key}", host: "${host}" });</script>`
    : '';
  return (
    <div class="card">
      <h2>Tracker snippet</h2>
      <p class="muted">Paste it into every page, before the closing &lt;/body&gt; tag. {browserKey ? 'It carries the browser token issued above.' : 'Issue a browser token to fill in the key.'}</p>
      <ErrorNote error={manifest.error} />
      {manifest.loading ? (
        <Loading />
      ) : (
        m && (
          <>
            <pre class="snippet" data-testid="tracker-snippet" tabIndex={0}>
              {snippet}
            </pre>
            <CopyButton value={snippet} label="Copy the snippet" />
          </>
        )
      )}
    </div>
  );
}
