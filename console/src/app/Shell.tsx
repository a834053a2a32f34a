// The frame of every signed-in page: organization and project switchers, the navigation of the
// current project, the account menu, and (cloud) the banner of an account that needs attention.
// On a narrow screen all but the brand fold behind one menu button. Children are the routed page.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { signOut, switchOrganization, useSession } from './session';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';
import { AccountBanner } from '../billing/AccountBanner';
import { INSIGHTS } from '../queries/registry';

export function currentProjectId(path: string): number | undefined {
  const match = /^\/projects\/(\d+)/.exec(path);
  return match ? Number(match[1]) : undefined;
}

interface NavItem {
  href: string;
  label: string;
}

/** `billed`: the organization has a subscription (cloud), so its billing page is offered. */
function projectNav(id: number, billed: boolean): Array<{ heading: string; items: NavItem[] }> {
  const base = `/projects/${id}`;
  return [
    // The Web page opens the list: what a new site's owner looks at first.
    { heading: 'Web', items: INSIGHTS.filter((k) => k.kind === 'web').map((k) => ({ href: `${base}${k.path}`, label: k.navLabel })) },
    {
      heading: 'Insights',
      items: [
        { href: `${base}/dashboards`, label: 'Dashboards' },
        { href: `${base}/insights/saved`, label: 'Saved insights' },
        ...INSIGHTS.filter((k) => k.kind !== 'web').map((k) => ({ href: `${base}${k.path}`, label: k.navLabel })),
      ],
    },
    {
      heading: 'Behavior',
      items: [
        { href: `${base}/behavior/pages`, label: 'Pages' },
        { href: `${base}/behavior/forms`, label: 'Forms' },
        { href: `${base}/recordings`, label: 'Recordings' },
      ],
    },
    {
      heading: 'Data',
      items: [
        { href: `${base}/live`, label: 'Live events' },
        { href: `${base}/events`, label: 'Events' },
        { href: `${base}/catalog`, label: 'Catalog' },
        { href: `${base}/labeled-events`, label: 'Labeled events' },
      ],
    },
    {
      heading: 'Settings',
      items: [
        { href: `${base}/keys`, label: 'Keys and tracker' },
        { href: `${base}/settings`, label: 'Project settings' },
        { href: '/org', label: 'Organization' },
        ...(billed ? [{ href: '/org/billing', label: 'Billing' }] : []),
      ],
    },
  ];
}

/**
 * The narrow screen's menu (CSS shows the button and folds the menu below its breakpoint only):
 * Escape closes it and gives the focus back to the button; going to a page closes it and takes the
 * focus to the page's content, since the link or switcher chosen is folded away with the menu.
 */
function useFoldedMenu(path: string) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const toContent = () => {
    setOpen(false);
    document.getElementById('main')?.focus();
  };
  useEffect(() => {
    if (open) toContent();
  }, [path]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  // A link to the page already open changes no path, so choosing any link closes the menu itself.
  const onChoose = (e: MouseEvent) => {
    if (open && (e.target as Element).closest('a')) toContent();
  };
  return { open, button, toggle: () => setOpen(!open), onChoose };
}

export function Shell({ children }: { children: ComponentChildren }) {
  const { me, projects = [], billing } = useSession();
  const { path, route } = useLocation();
  const { error, run } = useAction();
  const projectId = currentProjectId(path) ?? projects[0]?.id;
  const menu = useFoldedMenu(path);

  const changeOrg = (orgId: number) =>
    run(async () => {
      await switchOrganization(orgId);
      route('/', true);
    });

  return (
    <div class={menu.open ? 'shell menu-open' : 'shell'}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="/" aria-label="pp home">
          pp
        </a>
        <button
          type="button"
          ref={menu.button}
          class="button secondary menu-button"
          aria-expanded={menu.open}
          aria-controls={projectId === undefined ? 'shell-menu' : 'shell-menu shell-nav'}
          onClick={menu.toggle}
        >
          <span class="menu-icon" aria-hidden="true" />
          Menu
        </button>
        <div id="shell-menu" class="topbar-menu" onClick={menu.onChoose}>
          {me && me.orgs.length > 1 ? (
            <span class="switcher">
              <select aria-label="Organization" value={String(me.org.id)} onChange={(e) => void changeOrg(Number((e.currentTarget as HTMLSelectElement).value))}>
                {me.orgs.map((o) => (
                  <option value={String(o.id)}>{o.name}</option>
                ))}
              </select>
            </span>
          ) : (
            <span class="org-name">{me?.org.name}</span>
          )}
          {projects.length > 0 && (
            <span class="switcher">
              <select aria-label="Project" value={String(projectId)} onChange={(e) => route(`/projects/${(e.currentTarget as HTMLSelectElement).value}`)}>
                {projects.map((p) => (
                  <option value={String(p.id)}>{p.name}</option>
                ))}
              </select>
            </span>
          )}
          <nav class="account-nav" aria-label="Account">
            <a href="/account">{me?.user.name ?? me?.user.email}</a>
            <button type="button" class="link" onClick={() => void signOut()}>
              Sign out
            </button>
          </nav>
        </div>
      </header>
      <div class="body">
        {projectId !== undefined && (
          <nav id="shell-nav" class="sidebar" aria-label="Project" onClick={menu.onChoose}>
            {projectNav(projectId, billing !== undefined).map((group) => (
              <div class="nav-group">
                <div class="nav-heading">{group.heading}</div>
                <ul>
                  {group.items.map((item) => (
                    <li>
                      <a href={item.href} aria-current={path === item.href.split('?')[0] ? 'page' : undefined}>
                        {item.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
        )}
        <main id="main" class="content" tabIndex={-1}>
          <AccountBanner />
          <ErrorNote error={error} />
          {children}
        </main>
      </div>
    </div>
  );
}
