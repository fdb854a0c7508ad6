// @vitest-environment happy-dom
import { adminMessages, type IpStock, inventoryMessages } from '@storefront/contract';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../test/fake-api.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { PoolInventoryCard } from './pool-inventory-card.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stock = (totalIps: number): IpStock => ({
  totalIps,
  soldIps: 0,
  availableIps: totalIps,
  burntIps: 0,
  usagePercentage: 0,
  recycles: [],
  recyclesNext: null,
});
const uploadBox = () => screen.getByRole('textbox', { name: 'Upload IPs' }) as HTMLTextAreaElement;
const typeLines = (value: string) => fireEvent.change(uploadBox(), { target: { value } });
const pressUpload = () => fireEvent.click(screen.getByRole('button', { name: 'Upload IPs' }));
const uploads = (calls: { method: string }[]) => calls.filter((call) => call.method === 'POST');

describe('PK1 inventory: Upload IPs', () => {
  it('asks for at least one IP, names the lines in the wrong format, and sends nothing', async () => {
    const calls = fakeApi({ 'GET /api/admin/stocks/pk1': () => ({ body: stock(0) }) });
    renderWithApp(<PoolInventoryCard pool="pk1" />);
    await screen.findByText('Total');
    pressUpload();
    expect(await screen.findByText(inventoryMessages.emptyUpload)).toBeTruthy();

    typeLines('203.0.113.10:8000:user:pass\nnot-an-ip\n\n203.0.113.300:8000:user:pass');
    pressUpload();
    expect(await screen.findByText(inventoryMessages.invalidLines([2, 4]))).toBeTruthy();
    expect(uploads(calls)).toEqual([]);
  });

  it('sends the lines without the blank ones, says what the server did, empties the box and reloads the stock', async () => {
    let total = 0;
    const calls = fakeApi({
      'GET /api/admin/stocks/pk1': () => ({ body: stock(total) }),
      'POST /api/admin/stocks/pk1/upload': ({ body }) => {
        total = (body as { ips: string[] }).ips.length;
        return {
          body: { message: '2 IPs added, none skipped; no order was waiting.', added: 2, skipped: 0, delivered: 0 },
        };
      },
    });
    renderWithApp(<PoolInventoryCard pool="pk1" />);
    await screen.findByText('Total');
    typeLines('203.0.113.10:8000:user:pass\n\n203.0.113.11:8000:user:pass\n');
    pressUpload();

    expect(await screen.findByText('2 IPs added, none skipped; no order was waiting.')).toBeTruthy();
    expect(screen.getByText('IPs uploaded')).toBeTruthy();
    expect(uploads(calls)).toEqual([
      {
        method: 'POST',
        path: '/api/admin/stocks/pk1/upload',
        body: { ips: ['203.0.113.10:8000:user:pass', '203.0.113.11:8000:user:pass'] },
      },
    ]);
    expect(uploadBox().value).toBe('');
    await waitFor(() => expect(calls.filter((call) => call.path === '/api/admin/stocks/pk1')).toHaveLength(2));
  });

  it("shows the server's refusal in a red toast and keeps the lines", async () => {
    fakeApi({
      'GET /api/admin/stocks/pk1': () => ({ body: stock(0) }),
      'POST /api/admin/stocks/pk1/upload': () => ({ status: 400, body: { message: 'These IPs belong to Elite ISP.' } }),
    });
    renderWithApp(<PoolInventoryCard pool="pk1" />);
    await screen.findByText('Total');
    typeLines('203.0.113.10:8000:user:pass');
    pressUpload();
    expect(await screen.findByText('These IPs belong to Elite ISP.')).toBeTruthy();
    expect(screen.getByText(adminMessages.uploadFailedToast)).toBeTruthy();
    expect(uploadBox().value).toBe('203.0.113.10:8000:user:pass');
  });
});

describe('PK1 inventory: the burnt IPs', () => {
  const burnt = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => ({ ip: `203.0.113.${from + index}` }));

  it('shows a page at a time, goes on to the next, and Copy All copies the whole list', async () => {
    const calls = fakeApi({
      'GET /api/admin/stocks/pk1': ({ url }) => ({
        body: url.searchParams.get('after')
          ? { ...stock(150), burntIps: 150, recycles: burnt(101, 50), recyclesNext: null }
          : { ...stock(150), burntIps: 150, recycles: burnt(1, 100), recyclesNext: '203.0.113.100:8000' },
      }),
      'GET /api/admin/stocks/pk1/burnt.txt': () => ({ text: '203.0.113.1\n203.0.113.2\n' }),
    });
    const written: Blob[] = [];
    vi.stubGlobal(
      'ClipboardItem',
      class {
        items: Record<string, Promise<Blob>>;
        constructor(items: Record<string, Promise<Blob>>) {
          this.items = items;
        }
      },
    );
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        write: async (items: { items: Record<string, Promise<Blob>> }[]) => {
          for (const item of items) written.push(await (item.items['text/plain'] as Promise<Blob>));
        },
      },
    });
    renderWithApp(<PoolInventoryCard pool="pk1" />);
    const list = (await screen.findByRole('textbox', { name: /Burnt IPs \(150\)/ })) as HTMLTextAreaElement;
    expect(list.value.split('\n')).toHaveLength(100);
    expect(screen.getByText('Page 1, more after it')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Next IPs' }));
    await waitFor(() => expect(list.value.split('\n')[0]).toBe('203.0.113.101'));
    expect(screen.getByText('Page 2, the last')).toBeTruthy();
    expect(calls.map((call) => call.path)).toContain('/api/admin/stocks/pk1?after=203.0.113.100%3A8000');

    fireEvent.click(screen.getByRole('button', { name: 'Copy All' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(await written[0]?.text()).toBe('203.0.113.1\n203.0.113.2\n');
    const download = screen.getByRole('link', { name: 'Download' });
    expect(download.getAttribute('href')).toBe('/api/admin/stocks/pk1/burnt.txt');
    expect(download.getAttribute('download')).toMatch(/^burnt-ips-\d{4}-\d{2}-\d{2}\.txt$/);
  });
});
