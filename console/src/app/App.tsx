// The application: the routes of the signed-out pages, the forced password change, and the
// signed-in pages inside the shell. Pages load lazily, so the first screen carries little code.

import { useEffect } from 'preact/hooks';
import { ErrorBoundary, lazy, LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { bootstrap, useSession } from './session';
import { Shell } from './Shell';
import { Loading } from '../ui/states';
import { SignIn, nextPath } from '../auth/SignIn';
import { AuthCallback } from '../auth/AuthCallback';
import { ChangePassword, ForgotPassword, ResetPassword } from '../auth/PasswordPages';
import { Invite } from '../auth/Invite';
import { Register } from '../auth/Register';
import { VerifySignup } from '../auth/signup/VerifySignup';
import { Home, NotFound } from './Home';
import { INSIGHTS } from '../queries/registry';

const Account = lazy(() => import('../accounts/Account').then((m) => m.Account));
const Keys = lazy(() => import('../keys/Keys').then((m) => m.Keys));
const LiveEvents = lazy(() => import('../events/LiveEvents').then((m) => m.LiveEvents));
const EventsExplorer = lazy(() => import('../events/EventsExplorer').then((m) => m.EventsExplorer));
const Catalog = lazy(() => import('../events/Catalog').then((m) => m.Catalog));
const Organization = lazy(() => import('../accounts/Organization').then((m) => m.Organization));
const ProjectSettings = lazy(() => import('../accounts/ProjectSettings').then((m) => m.ProjectSettings));
const BehaviorPages = lazy(() => import('../behavior/Pages').then((m) => m.Pages));
const PageReport = lazy(() => import('../behavior/PageReport').then((m) => m.PageReport));
const BehaviorForms = lazy(() => import('../behavior/Forms').then((m) => m.Forms));
const FormDetail = lazy(() => import('../behavior/FormDetail').then((m) => m.FormDetail));
const LabeledRules = lazy(() => import('../labeled/Rules').then((m) => m.Rules));
const RuleEditor = lazy(() => import('../labeled/RuleEditor').then((m) => m.RuleEditor));
const Dashboards = lazy(() => import('../dashboards/Dashboards').then((m) => m.Dashboards));
const Dashboard = lazy(() => import('../dashboards/Dashboard').then((m) => m.Dashboard));
const SavedInsights = lazy(() => import('../dashboards/SavedInsights').then((m) => m.SavedInsights));
const SavedInsight = lazy(() => import('../dashboards/SavedInsight').then((m) => m.SavedInsight));
const SharedView = lazy(() => import('../dashboards/SharedView').then((m) => m.SharedView));
const Recordings = lazy(() => import('../replay/Recordings').then((m) => m.Recordings));
const Recording = lazy(() => import('../replay/Recording').then((m) => m.Recording));
const Billing = lazy(() => import('../billing/Billing').then((m) => m.Billing));
const ActivateTrial = lazy(() => import('../billing/ActivateTrial').then((m) => m.ActivateTrial));
const Unsubscribe = lazy(() => import('../billing/Unsubscribe').then((m) => m.Unsubscribe));

/** Pages anyone may open; every other path needs a session. */
const PUBLIC_PATHS = ['/sign-in', '/register', '/forgot-password', '/reset-password', '/invite', '/auth/callback', '/signup/verify', '/unsubscribe'];
/** What a share link opens: no session is asked for, and nothing of the signed-in console shows. */
const isSharedPath = (path: string) => path.startsWith('/shared/');

function Gate() {
  const session = useSession();
  const { path, url, query, route } = useLocation();
  const isPublic = PUBLIC_PATHS.includes(path);
  useEffect(() => {
    if (isSharedPath(path)) return;
    if (session.status === 'signed-out' && !isPublic) route(`/sign-in${path === '/' ? '' : `?next=${encodeURIComponent(url)}`}`, true);
    if (session.status === 'signed-in' && (path === '/sign-in' || path === '/register')) route(nextPath(query), true);
  }, [session.status, path]);

  if (isSharedPath(path)) {
    return (
      <Router>
        <Route path="/shared/:token" component={SharedView} />
        <Route default component={NotFound} />
      </Router>
    );
  }
  if (isPublic) {
    return (
      <Router>
        <Route path="/sign-in" component={SignIn} />
        <Route path="/register" component={Register} />
        <Route path="/forgot-password" component={ForgotPassword} />
        <Route path="/reset-password" component={ResetPassword} />
        <Route path="/invite" component={Invite} />
        <Route path="/auth/callback" component={AuthCallback} />
        <Route path="/signup/verify" component={VerifySignup} />
        <Route path="/unsubscribe" component={Unsubscribe} />
      </Router>
    );
  }
  if (session.status !== 'signed-in') return <Loading label="Starting pp…" />;
  if (session.me?.user.password_change_required) return <ChangePassword forced />;
  return (
    <Shell>
      <Router>
        <Route path="/" component={Home} />
        {INSIGHTS.map((k) => (
          <Route path={`/projects/:projectId${k.path}`} component={k.Page} />
        ))}
        <Route path="/projects/:projectId/insights/saved" component={SavedInsights} />
        <Route path="/projects/:projectId/insights/saved/:insightId" component={SavedInsight} />
        <Route path="/projects/:projectId/dashboards" component={Dashboards} />
        <Route path="/projects/:projectId/dashboards/:dashboardId" component={Dashboard} />
        <Route path="/projects/:projectId/behavior/pages" component={BehaviorPages} />
        <Route path="/projects/:projectId/behavior/page" component={PageReport} />
        <Route path="/projects/:projectId/behavior/forms" component={BehaviorForms} />
        <Route path="/projects/:projectId/behavior/form" component={FormDetail} />
        <Route path="/projects/:projectId/recordings" component={Recordings} />
        <Route path="/projects/:projectId/recordings/:sessionId" component={Recording} />
        <Route path="/projects/:projectId/labeled-events" component={LabeledRules} />
        <Route path="/projects/:projectId/labeled-events/new" component={RuleEditor} />
        <Route path="/projects/:projectId/labeled-events/:ruleId" component={RuleEditor} />
        <Route path="/projects/:projectId/keys" component={Keys} />
        <Route path="/projects/:projectId/live" component={LiveEvents} />
        <Route path="/projects/:projectId/events" component={EventsExplorer} />
        <Route path="/projects/:projectId/catalog" component={Catalog} />
        <Route path="/projects/:projectId/settings" component={ProjectSettings} />
        <Route path="/org" component={Organization} />
        <Route path="/org/billing" component={Billing} />
        <Route path="/trial/activate" component={ActivateTrial} />
        <Route path="/account" component={Account} />
        <Route default component={NotFound} />
      </Router>
    </Shell>
  );
}

export function App() {
  // A share link's page is read without a session: it never asks for one.
  useEffect(() => void (isSharedPath(location.pathname) || bootstrap()), []);
  return (
    <LocationProvider>
      <ErrorBoundary>
        <Gate />
      </ErrorBoundary>
    </LocationProvider>
  );
}
