// @vitest-environment happy-dom
import { paths, topUpMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { SandboxCardSetupPage } from './sandbox-card-setup-page.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const id = `seti_sandbox_${'a'.repeat(24)}`;
const returnUrl = `${window.location.origin}/dashboard/proxies?tab=residential_proxies&card=saved`;

function show() {
  renderWithApp(
    <Routes>
      <Route path={paths.sandboxCardSetup} element={<SandboxCardSetupPage />} />
      <Route path={paths.proxies} element={<p>The Residential tab</p>} />
    </Routes>,
    { route: `/sandbox/card/${id}` },
  );
}

describe('SandboxCardSetupPage', () => {
  it('saves the card chosen and goes back to the answered address', async () => {
    const calls = fakeApi({
      [`GET /api/sandbox/card-setups/${id}`]: () => ({ body: { id, used: false, returnUrl } }),
      [`POST /api/sandbox/card-setups/${id}`]: () => ({ body: { id, used: true, returnUrl } }),
    });
    show();
    expect(await screen.findByRole('heading', { name: 'Save a card for automatic top-up (sandbox)' })).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Card that is declined'));
    fireEvent.click(screen.getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('The Residential tab')).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ card: 'declined' });
  });

  it('says a used page has been used, and an unknown one that it is nobody’s', async () => {
    fakeApi({ [`GET /api/sandbox/card-setups/${id}`]: () => ({ body: { id, used: true, returnUrl } }) });
    show();
    expect(await screen.findByText(topUpMessages.setupUsed)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save card' })).toBeNull();
    cleanup();
    vi.unstubAllGlobals();
    fakeApi({ [`GET /api/sandbox/card-setups/${id}`]: () => ({ status: 404, body: { message: 'Not Found' } }) });
    show();
    expect(await screen.findByText(topUpMessages.noSetupPage)).toBeTruthy();
  });
});
