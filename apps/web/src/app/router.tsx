import { paths } from '@storefront/contract';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { LandingPage } from '../features/landing/components/landing-page.tsx';

// Everything but the landing page is split off, so the first visit downloads only what it shows.
const PrivacyPage = lazy(async () => ({
  default: (await import('../features/legal/components/privacy-page.tsx')).PrivacyPage,
}));
const TermsPage = lazy(async () => ({
  default: (await import('../features/legal/components/terms-page.tsx')).TermsPage,
}));
const NotFoundPage = lazy(async () => ({
  default: (await import('../features/errors/not-found-page.tsx')).NotFoundPage,
}));

export function AppRouter() {
  return (
    <BrowserRouter>
      <Suspense fallback={null}>
        <Routes>
          <Route path={paths.home} element={<LandingPage />} />
          <Route path={paths.privacy} element={<PrivacyPage />} />
          <Route path={paths.terms} element={<TermsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
