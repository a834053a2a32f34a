// Where single sign-on lands: the identity provider's answer was checked by the server, which set
// the refresh cookie; the page load's bootstrap turns it into a session and the app opens.

import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from '../app/session';
import { ErrorNote, Loading } from '../ui/states';
import { AuthLayout } from './AuthLayout';

export function AuthCallback() {
  const session = useSession();
  const { route, query } = useLocation();
  useEffect(() => {
    if (session.status === 'signed-in') route('/', true);
  }, [session.status]);
  return (
    <AuthLayout title="Single sign-on">
      {session.status === 'signed-out' ? (
        <>
          <ErrorNote error={query.error ? `The identity provider answered: ${query.error}` : 'Single sign-on did not complete. Try again, or sign in with a password.'} />
          <div class="auth-links">
            <a href="/sign-in">Back to sign in</a>
          </div>
        </>
      ) : (
        <Loading label="Signing you in…" />
      )}
    </AuthLayout>
  );
}
