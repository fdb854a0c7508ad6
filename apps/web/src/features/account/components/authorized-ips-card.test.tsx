// @vitest-environment happy-dom
import { authorizedIpMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { AuthorizedIpsCard } from './authorized-ips-card.tsx';
import { UsageEmailsCard } from './usage-emails-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('AuthorizedIpsCard', () => {
  it('offers the current address in one click, saves the list, and turns "Only from these IPs" on with it', async () => {
    let saved = { ips: [] as string[], onlyFromTheseIps: false, currentIp: '81.2.69.160' };
    const calls = fakeApi({
      'GET /api/user/authorized-ips': () => ({ body: saved }),
      'PUT /api/user/authorized-ips': ({ body }) => {
        const request = body as { ips: string[]; onlyFromTheseIps: boolean };
        saved = { ...saved, ips: request.ips, onlyFromTheseIps: request.onlyFromTheseIps };
        return { body: saved };
      },
    });
    renderWithApp(<AuthorizedIpsCard />);
    const only = (await screen.findByRole('switch', { name: /Only from these IPs/ })) as HTMLInputElement;
    expect(only.disabled).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Add my current IP' }));
    expect(await screen.findByRole('button', { name: 'Remove 81.2.69.160' })).toBeTruthy();
    await waitFor(() => expect(only.disabled).toBe(false));
    fireEvent.click(only);
    await waitFor(() => expect(only.checked).toBe(true));
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { ips: ['81.2.69.160'], onlyFromTheseIps: false },
      { ips: ['81.2.69.160'], onlyFromTheseIps: true },
    ]);
  });

  it("shows the server's sentence for an address it refuses, and keeps what was typed", async () => {
    fakeApi({
      'GET /api/user/authorized-ips': () => ({ body: { ips: [], onlyFromTheseIps: false, currentIp: null } }),
      'PUT /api/user/authorized-ips': () => ({
        status: 400,
        body: { message: authorizedIpMessages.notPublic('10.0.0.5') },
      }),
    });
    renderWithApp(<AuthorizedIpsCard />);
    const field = (await screen.findByRole('textbox', { name: 'Add an IP' })) as HTMLInputElement;
    fireEvent.change(field, { target: { value: '10.0.0.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText(authorizedIpMessages.notPublic('10.0.0.5'))).toBeTruthy();
    expect(field.value).toBe('10.0.0.5');
  });
});

describe('UsageEmailsCard', () => {
  it('turns the usage e-mails off', async () => {
    const calls = fakeApi({
      'GET /api/user/preferences': () => ({ body: { usageEmails: true, recordDomains: true } }),
      'PUT /api/user/preferences': ({ body }) => ({ body }),
    });
    renderWithApp(<UsageEmailsCard />);
    const toggle = (await screen.findByRole('switch', { name: /Residential data usage/ })) as HTMLInputElement;
    await waitFor(() => expect(toggle.checked).toBe(true));
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.checked).toBe(false));
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ usageEmails: false });
  });
});
