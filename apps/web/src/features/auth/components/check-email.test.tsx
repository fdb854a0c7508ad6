// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { site } from '../../../config/site.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { CheckEmail } from './check-email.tsx';

const mailsInLog = site.mailsInLog;
afterEach(() => {
  cleanup();
  site.mailsInLog = mailsInLog;
});

describe('Check Your Email', () => {
  it("says where the link is when the shop has no mail server: the server's output", () => {
    site.mailsInLog = true;
    renderWithApp(<CheckEmail onTryAgain={() => {}}>Sent.</CheckEmail>);
    expect(screen.getByText(/the link is in the server's output/)).toBeTruthy();
    expect(screen.queryByText(/spam folder/)).toBeNull();
  });

  it('points to the spam folder when e-mails are sent', () => {
    site.mailsInLog = false;
    renderWithApp(<CheckEmail onTryAgain={() => {}}>Sent.</CheckEmail>);
    expect(screen.getByText(/Check your spam folder/)).toBeTruthy();
  });
});
