import { actionEmail, type Branding } from '../../lib/branded-email.ts';
import type { Mail } from '../../lib/mailer.ts';

export function confirmationEmail(brand: Branding, to: string, url: string): Mail {
  return actionEmail(brand, to, {
    subject: `Confirm your e-mail address for ${brand.brandName}`,
    heading: 'Confirm your e-mail address',
    body: `Thanks for signing up to ${brand.brandName}. Confirm that ${to} is your address so that receipts and security notices reach you.`,
    action: 'Confirm e-mail address',
    url,
    footnote: 'If you did not create an account, you can ignore this message.',
  });
}

export function passwordResetEmail(brand: Branding, to: string, url: string): Mail {
  return actionEmail(brand, to, {
    subject: `Reset your ${brand.brandName} password`,
    heading: 'Reset your password',
    body: 'Someone asked to reset the password of your account. The link below lets you choose a new one; it works once and expires in one hour.',
    action: 'Choose a new password',
    url,
    footnote: 'If you did not ask for this, ignore this message: your password stays as it is.',
  });
}
