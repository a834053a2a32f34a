// `/` opens the first project of the organization; without one, says how to make one.
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { useSession } from './session';
import { Empty } from '../ui/states';

export function Home() {
  const { projects } = useSession();
  const { route } = useLocation();
  const first = projects?.[0];
  useEffect(() => {
    if (first) route(`/projects/${first.id}`, true);
  }, [first?.id]);
  if (first) return null;
  return <Empty title="This organization has no project yet">An administrator creates one under Organization; events are collected per project.</Empty>;
}

export function NotFound() {
  return (
    <Empty title="Page not found">
      <a href="/">Go to the start page</a>
    </Empty>
  );
}
