// What this server's sign-in pages may offer (GET /auth/options): a registration link only where
// registration is open, a reset by email only where mail can leave.

import { api, ok } from '../api/client';
import { useAsync } from '../ui/useAsync';

const loadOptions = () => ok(api.GET('/api/v1/auth/options'));

export function useSignInOptions() {
  return useAsync(loadOptions, []);
}
