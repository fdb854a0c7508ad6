import { paths } from '@storefront/contract';
import { Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { LandingPage } from '../features/landing/components/landing-page.tsx';
import { FocusHeadingOnNavigation } from './focus-on-navigation.tsx';
import {
  browserPages,
  dashboardLayout,
  publicPages,
  serverDrawnPublicPages,
  signedInPageAt,
  signedInPages,
} from './pages.tsx';

/**
 * Starts fetching the chunks a dashboard URL needs (the layout and its page) before React asks for them (the server
 * also links them as module preloads; this covers a page the browser renders alone).
 */
export function preloadRoute(pathname: string): void {
  if (!pathname.startsWith(paths.dashboard)) return;
  void dashboardLayout.preload();
  // The admin route's gate, not the console: the console's chunk loads once the session says the visitor may see it.
  void signedInPageAt(pathname)?.page.preload();
}

/** What a screen says while its code loads (spec section 2: 'Completing authentication...', 'Loading...'). */
function Waiting({ text }: { text: string }) {
  return <output style={{ display: 'block', textAlign: 'center', padding: '4rem 1rem' }}>{text}</output>;
}

/**
 * Every page of the app, from the route table (pages.tsx); the server renders the public ones and the signed-in pages
 * (their frame, or the page whole for its reader) itself (../entry-server.tsx) and the browser hydrates them.
 */
export function AppRoutes() {
  const { login, signup, forgotPassword, resetPassword, authCallback } = browserPages;
  const { sandboxCheckout, sandboxInvoice, sandboxBilling, sandboxCardSetup } = browserPages;
  return (
    <Suspense fallback={null}>
      <Routes>
        <Route path={paths.home} element={<LandingPage />} />
        {Object.entries(serverDrawnPublicPages).map(([path, { Page }]) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path={paths.login} element={<login.Page />} />
        <Route path={paths.signup} element={<signup.Page />} />
        <Route path={paths.forgotPassword} element={<forgotPassword.Page />} />
        <Route path={paths.resetPassword} element={<resetPassword.Page />} />
        <Route
          path={paths.authCallback}
          element={
            <Suspense fallback={<Waiting text="Completing authentication..." />}>
              <authCallback.Page />
            </Suspense>
          }
        />
        <Route
          path={paths.dashboard}
          element={
            <Suspense fallback={<Waiting text="Loading..." />}>
              <dashboardLayout.Page />
            </Suspense>
          }
        >
          <Route index element={<Navigate to={paths.overview} replace />} />
          {signedInPages.map(({ path, page: { Page } }) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
        </Route>
        <Route path={paths.sandboxCheckout} element={<sandboxCheckout.Page />} />
        <Route path={paths.sandboxInvoice} element={<sandboxInvoice.Page />} />
        <Route path={paths.sandboxBilling} element={<sandboxBilling.Page />} />
        <Route path={paths.sandboxCardSetup} element={<sandboxCardSetup.Page />} />
        <Route path="*" element={<publicPages.notFound.Page />} />
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
