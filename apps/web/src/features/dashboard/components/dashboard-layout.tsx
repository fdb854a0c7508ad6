import '../../../styles/app-mantine.ts';
import { AppShell, Box, Burger, Button, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure, useWindowEvent } from '@mantine/hooks';
import { type AuthCheckResponse, authMessages, paths } from '@storefront/contract';
import {
  IconChartBar,
  IconExternalLink,
  IconHistory,
  IconHome,
  IconLogout,
  IconMessageCircle,
  IconServer,
  IconSettings,
  IconShieldLock,
  IconShoppingCart,
} from '@tabler/icons-react';
import { memo, type RefObject, Suspense, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, Outlet, NavLink as RouterNavLink, useLocation, useNavigate } from 'react-router';
import { BrandMark } from '../../../components/brand-mark.tsx';
import { ColorSchemeToggle } from '../../../components/color-scheme-toggle.tsx';
import { MAIN_CONTENT_ID, SkipLink } from '../../../components/skip-link.tsx';
import { site } from '../../../config/site.ts';
import { DrawnForReader } from '../../../lib/drawn-for-reader.ts';
import { showToast } from '../../../lib/toasts.ts';
import { useAuth, useRefreshAfterAuthChange } from '../../../lib/use-auth.ts';
import { useHydrating } from '../../../lib/use-hydrating.ts';
import { useServerPageTitle } from '../../../lib/use-page-title.ts';
import classes from './dashboard.module.css';
import { AccountSkeleton, PageSkeleton } from './dashboard-skeleton.tsx';

/** Spec section 9: the auth loading state is forced off after 2000 ms. */
export const AUTH_LOADING_TIMEOUT_MS = 2000;
/** Spec: the layout collapses to a burger menu at 768 px and below (Mantine's sm is "below 768"). */
const NAVBAR_BREAKPOINT = '48.0625em';

type AuthUser = NonNullable<AuthCheckResponse['user']>;

const NAV_ITEMS = [
  { to: paths.overview, label: 'Overview', Icon: IconHome },
  { to: paths.proxies, label: 'Proxies', Icon: IconServer },
  { to: paths.usage, label: 'Usage', Icon: IconChartBar },
  { to: paths.purchase, label: 'Purchase', Icon: IconShoppingCart },
  { to: paths.settings, label: 'Settings', Icon: IconSettings },
  { to: paths.orderHistory, label: 'Order History', Icon: IconHistory },
];

/** Calls `then` once committed: inside a Suspense boundary, once the boundary's content has hydrated. */
function WhenHydrated({ then }: { then: () => void }) {
  // Once, when the boundary hydrates (`then` is made anew by each render of its parent).
  useEffect(then, []);
  return null;
}

/** The header: the phone's menu button, the brand and the colour scheme switch. */
const DashboardHeader = memo(function DashboardHeader({
  opened,
  toggle,
  burgerRef,
}: {
  opened: boolean;
  toggle: () => void;
  burgerRef: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <AppShell.Header>
      <Group h="100%" px="md" justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <Burger
            ref={burgerRef}
            opened={opened}
            onClick={toggle}
            className={classes.burger}
            size="sm"
            aria-label={opened ? 'Close menu' : 'Open menu'}
            aria-expanded={opened}
            aria-controls="dashboard-navigation"
          />
          <Group gap="xs" wrap="nowrap" fw={800}>
            <BrandMark size={24} />
            <Text fw={800} truncate>
              {site.brandName}
            </Text>
          </Group>
        </Group>
        <ColorSchemeToggle />
      </Group>
    </AppShell.Header>
  );
});

/**
 * The navigation and the account's corner (its e-mail and Sign Out). `user` is undefined while the session is not
 * known yet (the account's skeleton, no Admin link).
 */
const DashboardNavbar = memo(function DashboardNavbar({
  pathname,
  user,
}: {
  pathname: string;
  user: AuthUser | undefined;
}) {
  const navigate = useNavigate();
  const refreshAuth = useRefreshAfterAuthChange();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    setSigningOut(true);
    // better-auth's sign-out endpoint itself, as its client calls it: the client (a file of its own, which no signed-in
    // page loads) is not needed for one request, and a tab open since before a release may no longer find its file.
    try {
      await fetch('/api/auth/sign-out', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
    } catch {
      setSigningOut(false);
      showToast({ color: 'red', message: authMessages.signOutFailed });
      return;
    }
    await refreshAuth();
    showToast({ color: 'green', message: authMessages.signedOut });
    navigate(paths.login);
  };

  return (
    <AppShell.Navbar p="sm" aria-label="Dashboard" id="dashboard-navigation">
      <AppShell.Section grow component={ScrollArea}>
        <Stack gap={2}>
          {NAV_ITEMS.map(({ to, label, Icon }) => (
            <NavLink
              key={to}
              component={RouterNavLink}
              to={to}
              label={label}
              leftSection={<Icon size={18} aria-hidden />}
              active={pathname === to}
            />
          ))}
          <NavLink
            component="a"
            href={site.supportUrl}
            target="_blank"
            rel="noopener noreferrer"
            label="Support"
            leftSection={<IconMessageCircle size={18} aria-hidden />}
            rightSection={<IconExternalLink size={14} aria-label="opens in a new tab" />}
          />
          {user?.role === 'admin' && (
            <NavLink
              component={RouterNavLink}
              to={paths.admin}
              label="Admin"
              leftSection={<IconShieldLock size={18} aria-hidden />}
              active={pathname === paths.admin}
            />
          )}
        </Stack>
      </AppShell.Section>
      <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        {user === undefined ? (
          <AccountSkeleton />
        ) : (
          <>
            <Text size="xs" c="dimmed">
              Signed in as
            </Text>
            <Text size="sm" fw={500} truncate title={user.email} mb="xs" data-testid="sidebar-email">
              {user.email}
            </Text>
            <Button
              variant="default"
              fullWidth
              leftSection={<IconLogout size={16} aria-hidden />}
              loading={signingOut}
              onClick={() => void signOut()}
            >
              Sign Out
            </Button>
          </>
        )}
      </AppShell.Section>
    </AppShell.Navbar>
  );
});

/**
 * The signed-in pages' frame: header, navigation and the page. The server draws a customer page whole for a visitor
 * whose session it read (entry-server.tsx), and otherwise the frame with a skeleton in the page's place, so either is
 * on screen before the JavaScript arrives; the browser hydrates what was drawn and then goes on from there. The header
 * and the navigation render again only when what they show changes: the frame renders again as it learns it has
 * hydrated and as its page comes alive, each a render that blocks the page (React renders such updates at once).
 */
export function DashboardLayout() {
  const { user, isLoading } = useAuth();
  const hydrating = useHydrating();
  const drawnForReader = useContext(DrawnForReader);
  // A page the server drew whole is on screen before its code: it stays inert (seen, but neither clickable nor in the
  // accessibility tree) until it has hydrated, so no click or keystroke falls on a control that cannot answer yet.
  const [pageInert, setPageInert] = useState(hydrating && drawnForReader);
  const [loadingTimedOut, setLoadingTimedOut] = useState(false);
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  // The server draws this frame before the page's own code runs: the HTML still carries the page's title.
  useServerPageTitle(location.pathname);

  // Spec section 9: 'Loading...' at most AUTH_LOADING_TIMEOUT_MS while the session loads (counted only then).
  useEffect(() => {
    if (!isLoading || loadingTimedOut) return;
    const timer = window.setTimeout(() => setLoadingTimedOut(true), AUTH_LOADING_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [isLoading, loadingTimedOut]);
  // The drawer closes when a page is chosen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(close, [location.pathname]);
  // On a phone the menu covers the page: Escape closes it, and the focus goes back to the button that opened it.
  const burgerRef = useRef<HTMLButtonElement>(null);
  useWindowEvent('keydown', (event) => {
    if (event.key !== 'Escape' || !opened) return;
    close();
    burgerRef.current?.focus();
  });

  // The page as one element, made again only when it changes: the layout's render as it learns it has hydrated then
  // hands nothing new to a page React is still hydrating (which would make React hydrate it at once, in one long task).
  const page = useMemo(
    () => (
      <Suspense fallback={<PageSkeleton pathname={location.pathname} />}>
        <Outlet />
        {pageInert && <WhenHydrated then={() => setPageInert(false)} />}
      </Suspense>
    ),
    [location.pathname, pageInert],
  );

  // Spec section 9: 'Loading...' while the session loads, at most 2000 ms; then without a user, the sign-in page. While
  // hydrating, what the server drew: the whole page when it read for this visitor (the session is then in the query
  // cache already), else the frame, whatever the browser has learnt since.
  const waiting = (hydrating && !drawnForReader) || (isLoading && !loadingTimedOut);
  if (!waiting && !user) return <Navigate to={paths.login} replace />;

  return (
    <AppShell header={HEADER} navbar={opened ? NAVBAR_OPENED : NAVBAR_CLOSED} padding="md">
      <SkipLink />
      <DashboardHeader opened={opened} toggle={toggle} burgerRef={burgerRef} />
      <DashboardNavbar pathname={location.pathname} user={waiting || !user ? undefined : user} />
      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Box maw={1200} mx="auto" inert={pageInert}>
          {/* A page whose code is still loading waits here, inside the layout: the navigation and its menu stay put. */}
          {waiting ? <PageSkeleton pathname={location.pathname} /> : page}
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

const HEADER = { height: 56 };
const NAVBAR_OPENED = { width: 260, breakpoint: NAVBAR_BREAKPOINT, collapsed: { mobile: false } };
const NAVBAR_CLOSED = { width: 260, breakpoint: NAVBAR_BREAKPOINT, collapsed: { mobile: true } };
