// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../../../test/render.tsx';
import { ConnectionTestResult } from './connection-test-result.tsx';

afterEach(cleanup);

describe('ConnectionTestResult', () => {
  it('shows the exit address, its country by name and the time taken', () => {
    renderWithApp(<ConnectionTestResult result={{ ok: true, exitAddress: '203.0.113.9', country: 'DE', ms: 1234 }} />);
    expect(screen.getByText('Connected')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Exit address 203.0.113.9 in Germany (DE), in 1,234 ms.');
  });

  it('says when the test address named no country', () => {
    renderWithApp(<ConnectionTestResult result={{ ok: true, exitAddress: '2001:db8::1', country: null, ms: 80 }} />);
    expect(screen.getByRole('status').textContent).toContain('2001:db8::1, country not known, in 80 ms.');
  });

  it("shows the gateway's refusal in its own words", () => {
    const reason = 'Your residential data is used up. Buy more at https://shop.example.com/dashboard/purchase';
    renderWithApp(<ConnectionTestResult result={{ ok: false, reason, ms: 12 }} />);
    expect(screen.getByText('The gateway did not carry the test')).toBeTruthy();
    expect(screen.getByText(reason)).toBeTruthy();
  });

  it("shows why the test could not run (the API's words), and nothing before a test", () => {
    renderWithApp(<ConnectionTestResult />);
    expect(screen.queryByRole('status')).toBeNull();
    cleanup();
    renderWithApp(<ConnectionTestResult error="Too many attempts. Please wait 1 minute and try again." />);
    expect(screen.getByRole('status').textContent).toContain('Too many attempts. Please wait 1 minute and try again.');
  });
});
