import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, renderIndexHtml } from './web-app.ts';

describe('index.html rendering', () => {
  it('embeds the site config as a JSON block that cannot close the script tag', () => {
    const html = renderIndexHtml('<title>%BRAND_NAME%</title><!--site-config-->', {
      brandName: 'A & B </script>',
      chatCommunityUrl: 'https://chat.example.com/',
      supportUrl: 'https://chat.example.com/',
      socialSignIn: { google: false, discord: true },
      sandboxPayments: true,
    });
    expect(html).toContain('<title>A &amp; B &lt;/script&gt;</title>');
    expect(html).toContain('\\u003c/script>');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });

  it('hashes only executable inline scripts', () => {
    const body = 'console.log(1)';
    const hashes = inlineScriptHashes(
      `<script>${body}</script><script type="application/json" id="x">{}</script><script src="/a.js"></script>`,
    );
    expect(hashes).toEqual([`'sha256-${createHash('sha256').update(body).digest('base64')}'`]);
  });
});
