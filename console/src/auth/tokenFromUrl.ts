// A token that arrived in a link (?token=…) is read once and removed from the address bar, so it
// stays out of the history and of anything shared from the page.
import { useState } from 'preact/hooks';

export function useTokenFromUrl(): string {
  const [token] = useState(() => {
    const url = new URL(location.href);
    const value = url.searchParams.get('token') ?? '';
    if (value) {
      url.searchParams.delete('token');
      history.replaceState(history.state, '', url.pathname + url.search);
    }
    return value;
  });
  return token;
}
