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
    const field = (await screen.findByRole('textbox', { name: /^Name/ })) as HTMLInputElement;
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
});
