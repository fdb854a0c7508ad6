// @vitest-environment happy-dom
import { API_KEY_NAME_MAX, apiKeyMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ApiKeysCard } from './api-keys-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ApiKeysCard', () => {
  it('says a name over 64 characters is too long instead of cutting it, and sends nothing', async () => {
    const calls = fakeApi({ 'GET /api/api-keys': () => ({ body: [] }) });
    renderWithApp(<ApiKeysCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    // The dialog and its form load when it first opens (the form with zod): the first wait allows for that.
    const field = (await screen.findByRole('textbox', { name: /^Name/ }, { timeout: 5000 })) as HTMLInputElement;
    const pasted = `Scraper ${'x'.repeat(API_KEY_NAME_MAX)}`;
    fireEvent.change(field, { target: { value: pasted } });
    expect(field.value).toBe(pasted);
    expect(field.maxLength).toBe(-1);
    expect(await screen.findByText(apiKeyMessages.nameTooLong)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('asks for a name before sending an empty one', async () => {
    const calls = fakeApi({ 'GET /api/api-keys': () => ({ body: [] }) });
    renderWithApp(<ApiKeysCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Create Key' }));
    expect(await screen.findByText(apiKeyMessages.nameRequired)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('says a missing name once Create Key is pressed, and from then on as the name is typed', async () => {
    fakeApi({ 'GET /api/api-keys': () => ({ body: [] }) });
    renderWithApp(<ApiKeysCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    const field = await screen.findByRole('textbox', { name: /^Name/ });
    fireEvent.change(field, { target: { value: 'S' } });
    fireEvent.change(field, { target: { value: '' } });
    expect(screen.queryByText(apiKeyMessages.nameRequired)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    expect(await screen.findByText(apiKeyMessages.nameRequired)).toBeTruthy();
    fireEvent.change(field, { target: { value: 'S' } });
    expect(screen.queryByText(apiKeyMessages.nameRequired)).toBeNull();
    fireEvent.change(field, { target: { value: ' ' } });
    expect(screen.getByText(apiKeyMessages.nameRequired)).toBeTruthy();
  });

  it('sends the name, shows the whole key once, and lists the new key after', async () => {
    const listed: unknown[] = [];
    const calls = fakeApi({
      'GET /api/api-keys': () => ({ body: listed }),
      'POST /api/api-keys': ({ body }) => {
        const key = {
          id: 'k1',
          name: (body as { name: string }).name,
          start: 'sk_live_ab',
          createdAt: '2026-11-25T10:00:00.000Z',
          lastUsedAt: null,
        };
        listed.push(key);
        return { body: { ...key, key: 'sk_live_abcdef0123456789' } };
      },
    });
    renderWithApp(<ApiKeysCard />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create API Key' }));
    fireEvent.change(await screen.findByRole('textbox', { name: /^Name/ }), { target: { value: 'Scraper' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create Key' }));

    expect((await screen.findByTestId('new-api-key')).textContent).toBe('sk_live_abcdef0123456789');
    expect(screen.getByText(apiKeyMessages.created)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/api-keys', body: { name: 'Scraper' } },
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('button', { name: 'Revoke Scraper' }, { timeout: 3000 })).toBeTruthy();
  });
});
