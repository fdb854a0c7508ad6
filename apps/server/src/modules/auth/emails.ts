import type { Mail } from '../../lib/mailer.ts';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

interface Branding {
  brandName: string;
  appUrl: string;
}

/** One branded layout for every account e-mail: a heading, a paragraph, one button and the link spelled out. */
function actionEmail(
  brand: Branding,
  to: string,
  {
    subject,
    heading,
    body,
    action,
    url,
    footnote,
  }: Record<'subject' | 'heading' | 'body' | 'action' | 'url' | 'footnote', string>,
): Mail {
  const text = `${heading}\n\n${body}\n\n${action}: ${url}\n\n${footnote}\n\n${brand.brandName} · ${brand.appUrl}\n`;
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;padding:24px;background:#f1f3f5;font-family:Arial,Helvetica,sans-serif;color:#212529">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="560" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="background:#000000;color:#ffffff;padding:20px 32px;border-radius:8px 8px 0 0;font-size:20px;font-weight:bold">${escapeHtml(brand.brandName)}</td></tr>
<tr><td style="padding:32px">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.5">${escapeHtml(body)}</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(url)}" style="display:inline-block;background:#1864ab;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:6px;font-weight:bold">${escapeHtml(action)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#495057">If the button does not work, open this link:</p>
<p style="margin:0 0 24px;font-size:13px;word-break:break-all"><a href="${escapeHtml(url)}" style="color:#1864ab">${escapeHtml(url)}</a></p>
<p style="margin:0;font-size:13px;color:#495057">${escapeHtml(footnote)}</p>
</td></tr></table>
<p style="font-size:12px;color:#495057">${escapeHtml(brand.brandName)} · <a href="${escapeHtml(brand.appUrl)}" style="color:#495057">${escapeHtml(brand.appUrl)}</a></p>
</td></tr></table></body></html>`;
  return { to, subject, text, html };
}

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
