// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { AuditLogView } from './audit-log.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const entry = (summary: string) => ({
  id: summary,
  at: '2026-11-20T10:00:00.000Z',
  actorEmail: 'boss@example.com',
  action: 'ips.upload',
  summary,
  details: {},
});

describe('the audit log view', () => {
  it('goes to older pages by the position the server gives, and back', async () => {
    const calls = fakeApi({
      'GET /api/admin/audit-log': ({ url }) =>
        url.searchParams.get('before') === 'P1'
          ? { body: { entries: [entry('older one')], pageSize: 25, next: null } }
          : { body: { entries: [entry('newest one')], pageSize: 25, next: 'P1' } },
    });
    renderWithApp(<AuditLogView />);
    expect(await screen.findByText('newest one')).toBeTruthy();
    expect(screen.getByText('Page 1, more after it')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('older one')).toBeTruthy();
    expect(screen.getByText('Page 2, the oldest')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Older' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await screen.findByText('newest one')).toBeTruthy();
    expect(calls.map((call) => call.path)).toContain('/api/admin/audit-log?before=P1');
  });

  it('asks the server for the filters set, from the first page, and says when nothing matches', async () => {
    const calls = fakeApi({
      'GET /api/admin/audit-log': ({ url }) => ({
        body: { entries: url.searchParams.size === 0 ? [entry('any')] : [], pageSize: 25, next: null },
      }),
    });
    renderWithApp(<AuditLogView />);
    await screen.findByText('any');
    fireEvent.change(screen.getByLabelText('Administrator'), { target: { value: ' Boss@Example.com ' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('No changes match these filters.')).toBeTruthy();
    const filtered = new URL(`http://x${calls.at(-1)?.path}`).searchParams;
    expect(filtered.get('actor')).toBe('Boss@Example.com');
    expect(filtered.get('from')).toBe('2026-11-01');
    expect(filtered.get('timeZone')).toBeTruthy();
    expect(filtered.get('before')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(screen.getByText('any')).toBeTruthy());
  });
});
