import type { Mail } from './mailer.ts';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export interface Branding {
  brandName: string;
  appUrl: string;
}

/**
 * One branded layout for every e-mail: a heading, a paragraph (and a list under it, for a digest), one button and the
 * link spelled out.
 */
export function actionEmail(
  brand: Branding,
  to: string,
  {
    subject,
    heading,
    body,
    items = [],
    action,
    url,
    footnote,
  }: Record<'subject' | 'heading' | 'body' | 'action' | 'url' | 'footnote', string> & { items?: readonly string[] },
): Mail {
  const list = items.map((item) => `- ${item}\n`).join('');
  const text = `${heading}\n\n${body}\n${list ? `\n${list}` : ''}\n${action}: ${url}\n\n${footnote}\n\n${brand.brandName} · ${brand.appUrl}\n`;
  const htmlList = items.length
    ? `<ul style="margin:0 0 24px;padding-left:20px;font-size:15px;line-height:1.5">${items.map((item) => `<li style="margin:0 0 8px">${escapeHtml(item)}</li>`).join('')}</ul>\n`
    : '';
  const html = `<!doctype html>
<html lang="en"><body style="margin:0;padding:24px;background:#f1f3f5;font-family:Arial,Helvetica,sans-serif;color:#212529">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="560" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:8px">
<tr><td style="background:#000000;color:#ffffff;padding:20px 32px;border-radius:8px 8px 0 0;font-size:20px;font-weight:bold">${escapeHtml(brand.brandName)}</td></tr>
<tr><td style="padding:32px">
<h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(heading)}</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.5">${escapeHtml(body)}</p>
${htmlList}<p style="margin:0 0 24px"><a href="${escapeHtml(url)}" style="display:inline-block;background:#1864ab;color:#ffffff;text-decoration:none;padding:12px 24px;border-radius:6px;font-weight:bold">${escapeHtml(action)}</a></p>
<p style="margin:0 0 8px;font-size:13px;color:#495057">If the button does not work, open this link:</p>
<p style="margin:0 0 24px;font-size:13px;word-break:break-all"><a href="${escapeHtml(url)}" style="color:#1864ab">${escapeHtml(url)}</a></p>
<p style="margin:0;font-size:13px;color:#495057">${escapeHtml(footnote)}</p>
</td></tr></table>
<p style="font-size:12px;color:#495057">${escapeHtml(brand.brandName)} · <a href="${escapeHtml(brand.appUrl)}" style="color:#495057">${escapeHtml(brand.appUrl)}</a></p>
</td></tr></table></body></html>`;
  return { to, subject, text, html };
}
