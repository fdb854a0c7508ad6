import { Alert } from '@mantine/core';
import { paths } from '@storefront/contract';
import { IconLock } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useAuth } from '../../../lib/use-auth.ts';
import { PAGE_TITLES, usePageTitle } from '../../../lib/use-page-title.ts';
import { PageSkeleton } from './dashboard-skeleton.tsx';

/** What a signed-in visitor who is not an administrator gets on /dashboard/admin (spec section 2 'Admin'). */
function AccessDenied() {
  usePageTitle(PAGE_TITLES[paths.admin]);
  return (
    <Alert color="red" variant="light" title="Access Denied" icon={<IconLock size={18} aria-hidden />} role="alert">
      You don't have permission to access this page. Administrator privileges are required.
    </Alert>
  );
}

/**
 * /dashboard/admin: the role is checked from the session first, so a customer never downloads the admin console
 * (the layout renders its pages only once the session is known). `console` is the console split off (router.tsx):
 * its chunk is asked for when it first renders, for an administrator only; this gate's own chunk holds none of it.
 */
export function AdminRoute({ console: Console }: { console: ComponentType }) {
  const { isAdmin, isLoading } = useAuth();
  // The layout shows its pages once the session is known; rendered alone, the gate waits for it too.
  if (isLoading) return <PageSkeleton pathname={paths.admin} />;
  return isAdmin ? <Console /> : <AccessDenied />;
}
