// Registration where the installation allows it: a user, an organization and a first project in
// the browser's time zone. A closed installation answers with its own message, shown as is; a
// trial-first one (cloud) answers 202 and the code from the email is asked for (signup/CheckEmail).

import { useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { signedIn } from '../app/session';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { AuthLayout } from './AuthLayout';
import { PASSWORD_RULE } from './PasswordPages';
import { useAction } from '../ui/useAction';
import { CheckEmail } from './signup/CheckEmail';

export function Register() {
  const [form, setForm] = useState({ name: '', email: '', password: '', org_name: '' });
  const [pendingEmail, setPendingEmail] = useState<string>();
  const { busy, error, handle } = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });

  const submit = handle(async () => {
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const body = { email: form.email, password: form.password, timezone, ...(form.name ? { name: form.name } : {}), ...(form.org_name ? { org_name: form.org_name } : {}) };
    const answer = await ok(api.POST('/api/v1/auth/register', { body }));
    // 201 signs in; 202 (a verified signup) carries no token: the account exists once the email is confirmed.
    if ('access_token' in answer) await signedIn(answer as { access_token: string });
    else setPendingEmail((answer as { email: string }).email);
  });
  const fields = ['email', 'password', 'name', 'org_name'];
  if (pendingEmail) return <CheckEmail email={pendingEmail} onRestart={() => setPendingEmail(undefined)} />;
  return (
    <AuthLayout title="Create your account">
      <form onSubmit={submit} noValidate>
        <Field label="Your name" autocomplete="name" value={form.name} onValue={set('name')} problem={fieldProblem(error, 'name')} />
        <Field label="Work email" type="email" autocomplete="username" required value={form.email} onValue={set('email')} problem={fieldProblem(error, 'email')} />
        <Field label="Password" type="password" autocomplete="new-password" required value={form.password} onValue={set('password')} hint={PASSWORD_RULE} problem={fieldProblem(error, 'password')} />
        <Field label="Organization name" value={form.org_name} onValue={set('org_name')} hint="Optional; you can rename it later." problem={fieldProblem(error, 'org_name')} />
        <ErrorNote error={error && !fields.some((f) => fieldProblem(error, f)) ? error : undefined} />
        <Submit busy={busy}>Create the account</Submit>
      </form>
      <div class="auth-links">
        <a href="/sign-in">I have an account</a>
      </div>
    </AuthLayout>
  );
}
