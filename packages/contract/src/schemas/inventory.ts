// The zod schemas of inventory.ts: what the server validates and serialises, and the API reference; the web app takes
// their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { UPLOAD_MAX_LINES } from '../inventory.ts';

export const uploadIpsRequestSchema = z.object({
  ips: z
    .array(z.string().max(300, 'A line has at most 300 characters.'), {
      error: 'Send the lines as ips: ["IP:PORT:USER:PASS", …].',
    })
    .max(UPLOAD_MAX_LINES, `At most ${UPLOAD_MAX_LINES.toLocaleString('en-US')} lines in one upload.`),
});

export const uploadIpsResponseSchema = z.object({
  message: z.string(),
  added: z.number().int(),
  skipped: z.number().int(),
  delivered: z.number().int(),
});
