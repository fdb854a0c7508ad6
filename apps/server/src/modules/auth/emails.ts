import { paths } from '@storefront/contract';
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

/** Sent instead of an error when someone signs up with an address that has an account (no account enumeration). */
export function accountExistsEmail(brand: Branding, to: string): Mail {
  return actionEmail(brand, to, {
    subject: `You already have a ${brand.brandName} account`,
    heading: 'You already have an account',
    body: `Someone, perhaps you, tried to create a new ${brand.brandName} account with ${to}. This address already has an account: sign in, or reset your password if you have forgotten it.`,
    action: 'Sign in',
    url: `${brand.appUrl}${paths.login}`,
    footnote: 'If this was not you, you can ignore this message: nothing has changed on your account.',
  });
}

/** Sent on every change of the password (Settings or a reset link), with the way back if it was not the owner. */
export function passwordChangedEmail(brand: Branding, to: string): Mail {
  return actionEmail(brand, to, {
    subject: `Your ${brand.brandName} password was changed`,
    heading: 'Your password was changed',
    body: `The password of your ${brand.brandName} account (${to}) was just changed, and every other device was signed out.`,
    action: 'Reset my password',
    url: `${brand.appUrl}${paths.forgotPassword}`,
    footnote:
      'If this was you, there is nothing to do. If it was not, reset your password now with the link above: it signs out every device, including the one that changed it.',
  });
}
