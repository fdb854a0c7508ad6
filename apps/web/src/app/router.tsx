import { paths } from '@storefront/contract';
import { type ComponentType, lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { FocusHeadingOnNavigation } from './focus-on-navigation.tsx';

// Everything but the landing page is split off, so the first visit downloads only what it shows.
const page = <K extends string>(load: () => Promise<Record<K, React.ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

/** The public pages besides the landing: split off in the browser, imported directly by the server renderer. */
export interface PublicPages {
  PrivacyPage: ComponentType;
  TermsPage: ComponentType;
  NotFoundPage: ComponentType;
}

/** The signed-in pages: split off in the browser, imported directly by the server renderer (drawn for their reader). */
export interface DashboardPages {
  OverviewPage: ComponentType;
  ProxiesPage: ComponentType;
  PurchasePage: ComponentType;
  OrderHistoryPage: ComponentType;
  SettingsPage: ComponentType;
  /** The admin route: its gate (features/dashboard/components/admin-route.tsx) and, for an administrator, the console. */
  AdminPage: ComponentType;
}

const lazyPublicPages: PublicPages = {
  PrivacyPage: page(() => import('../features/legal/components/privacy-page.tsx'), 'PrivacyPage'),
  TermsPage: page(() => import('../features/legal/components/terms-page.tsx'), 'TermsPage'),
  NotFoundPage: page(() => import('../features/errors/not-found-page.tsx'), 'NotFoundPage'),
};
const SandboxBillingPage = page(
  () => import('../features/sandbox/components/sandbox-billing-page.tsx'),
  'SandboxBillingPage',
);
const LoginPage = page(() => import('../features/auth/components/login-page.tsx'), 'LoginPage');
const SignupPage = page(() => import('../features/auth/components/signup-page.tsx'), 'SignupPage');
const ForgotPasswordPage = page(
  () => import('../features/auth/components/forgot-password-page.tsx'),
  'ForgotPasswordPage',
);
const ResetPasswordPage = page(
  () => import('../features/auth/components/reset-password-page.tsx'),
  'ResetPasswordPage',
);
const AuthCallbackPage = page(() => import('../features/auth/components/auth-callback-page.tsx'), 'AuthCallbackPage');
// The signed-in screens: their chunks are also fetched at start-up on their own URL (preloadRoute), beside the session check.
const dashboardLoaders = {
  layout: () => import('../features/dashboard/components/dashboard-layout.tsx'),
  [paths.overview]: () => import('../features/dashboard/components/overview-page.tsx'),
  // The gate, not the console: the console's chunk loads only once the session says the visitor is an administrator.
  [paths.admin]: () => import('../features/dashboard/components/admin-route.tsx'),
  [paths.settings]: () => import('../features/account/components/settings-page.tsx'),
  [paths.purchase]: () => import('../features/purchase/components/purchase-page.tsx'),
  [paths.orderHistory]: () => import('../features/order-history/components/order-history-page.tsx'),
  [paths.proxies]: () => import('../features/proxies/components/proxies-page.tsx'),
};
const DashboardLayout = page(dashboardLoaders.layout, 'DashboardLayout');
const AdminRoute = lazy(async () => ({ default: (await dashboardLoaders[paths.admin]()).AdminRoute }));
// The admin console: not preloaded with the route, its chunk loads when AdminRoute renders it for an administrator.
const AdminConsole = page(() => import('../features/admin/components/admin-page.tsx'), 'AdminPage');

/**
 * Starts fetching the chunks a dashboard URL needs (the layout and its page) before React asks for them (the server
 * also links them as module preloads; this covers a page the browser renders alone).
 */
export function preloadRoute(pathname: string): void {
  if (!pathname.startsWith(paths.dashboard)) return;
  void dashboardLoaders.layout();
  const loader = dashboardLoaders[pathname as keyof typeof dashboardLoaders];
  if (loader) void loader();
}
const SandboxCheckoutPage = page(
  () => import('../features/sandbox/components/sandbox-checkout-page.tsx'),
  'SandboxCheckoutPage',
);
const SandboxInvoicePage = page(
  () => import('../features/sandbox/components/sandbox-invoice-page.tsx'),
  'SandboxInvoicePage',
);
const lazyDashboardPages: DashboardPages = {
  AdminPage: () => <AdminRoute console={AdminConsole} />,
  OverviewPage: page(dashboardLoaders[paths.overview], 'OverviewPage'),
  ProxiesPage: page(dashboardLoaders[paths.proxies], 'ProxiesPage'),
  PurchasePage: page(dashboardLoaders[paths.purchase], 'PurchasePage'),
  OrderHistoryPage: page(dashboardLoaders[paths.orderHistory], 'OrderHistoryPage'),
  SettingsPage: page(dashboardLoaders[paths.settings], 'SettingsPage'),
};

/** What a screen says while its code loads (spec section 2: 'Completing authentication...', 'Loading...'). */
function Waiting({ text }: { text: string }) {
  return <output style={{ display: 'block', textAlign: 'center', padding: '4rem 1rem' }}>{text}</output>;
}

/**
 * Every page of the app; the server renders the public ones and the signed-in pages (their frame, or the page whole
 * for its reader) itself (../entry-server.tsx, which passes them imported directly) and the browser hydrates them.
 */
export function AppRoutes({
  publicPages = lazyPublicPages,
  dashboardLayout: Layout = DashboardLayout,
  dashboardPages = lazyDashboardPages,
}: {
  publicPages?: PublicPages;
  dashboardLayout?: ComponentType;
  dashboardPages?: DashboardPages;
}) {
  const { PrivacyPage, TermsPage, NotFoundPage } = publicPages;
  const { OverviewPage, ProxiesPage, PurchasePage, OrderHistoryPage, SettingsPage, AdminPage } = dashboardPages;
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route path={paths.home} element={<LandingPage />} />
        <Route path={paths.privacy} element={<PrivacyPage />} />
        <Route path={paths.terms} element={<TermsPage />} />
        <Route path={paths.login} element={<LoginPage />} />
        <Route path={paths.signup} element={<SignupPage />} />
        <Route path={paths.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={paths.resetPassword} element={<ResetPasswordPage />} />
        <Route
          path={paths.authCallback}
          element={
            <Suspense fallback={<Waiting text="Completing authentication..." />}>
              <AuthCallbackPage />
            </Suspense>
          }
        />
        <Route
          path={paths.dashboard}
          element={
            <Suspense fallback={<Waiting text="Loading..." />}>
              <Layout />
            </Suspense>
          }
        >
          <Route index element={<Navigate to={paths.overview} replace />} />
          <Route path={paths.overview} element={<OverviewPage />} />
          <Route path={paths.settings} element={<SettingsPage />} />
          <Route path={paths.admin} element={<AdminPage />} />
          <Route path={paths.proxies} element={<ProxiesPage />} />
          <Route path={paths.purchase} element={<PurchasePage />} />
          <Route path={paths.orderHistory} element={<OrderHistoryPage />} />
        </Route>
        <Route path={paths.sandboxCheckout} element={<SandboxCheckoutPage />} />
        <Route path={paths.sandboxInvoice} element={<SandboxInvoicePage />} />
        <Route path={paths.sandboxBilling} element={<SandboxBillingPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <FocusHeadingOnNavigation />
      <AppRoutes />
    </BrowserRouter>
  );
}
