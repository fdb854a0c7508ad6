// The zod schemas of api-keys.ts: what the server validates and serialises, and the API reference; the web app takes
// their types only, so its pages load no zod (docs/decisions/2026-11-27-schemas-apart.md).
import { z } from 'zod';
import { API_KEY_NAME_MAX, API_KEY_START_LENGTH, apiKeyMessages, PROXY_LIST_PRODUCTS } from '../api-keys.ts';
import { PROXY_FORMATS } from '../proxy-formats.ts';
import { PROXY_USER_NAME_PATTERN, proxyUserMessages } from '../proxy-users.ts';
import { COUNTRY_OPTIONS, GENERATOR_COUNT_DEFAULT, GENERATOR_COUNT_MAX, GENERATOR_COUNT_MIN } from '../residential.ts';

/** A key as its owner sees it in the list: never the key itself, only its first characters. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  start: z.string().describe(`The first ${API_KEY_START_LENGTH} characters of the key`),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().describe('Updated at most once a minute'),
});
export type ApiKey = z.infer<typeof apiKeySchema>;
export const apiKeyListSchema = z.array(apiKeySchema);

/** The answer of a creation: the only time the whole key is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const createApiKeyRequestSchema = z.object({
  name: z
    .string({ error: apiKeyMessages.nameRequired })
    .trim()
    .min(1, { error: apiKeyMessages.nameRequired })
    .max(API_KEY_NAME_MAX, { error: apiKeyMessages.nameTooLong }),
});

export const apiKeyIdParamsSchema = z.object({ id: z.uuid({ error: apiKeyMessages.notFound }) });

const proxyFormatValues = Object.keys(PROXY_FORMATS) as [keyof typeof PROXY_FORMATS, ...(keyof typeof PROXY_FORMATS)[]];

const countMessage = `count must be a whole number from ${GENERATOR_COUNT_MIN} to ${GENERATOR_COUNT_MAX}.`;

const countryIds = new Set(COUNTRY_OPTIONS.map((country) => country.id));

/** GET /api/proxy-list: the customer's current proxies as text, one a line, for a tool that loads a list by URL. */
export const proxyListQuerySchema = z.object({
  key: z.string().optional().describe('The API key; or send it as `Authorization: Bearer <key>`'),
  product: z
    .enum(PROXY_LIST_PRODUCTS, {
      error: `product must be one of ${PROXY_LIST_PRODUCTS.join(', ')}.`,
    })
    .optional(),
  format: z
    .enum(proxyFormatValues, { error: `format must be one of ${proxyFormatValues.join(', ')}.` })
    .default('ip:port:user:pass'),
  country: z
    .string()
    .transform((value) => value.toUpperCase())
    .refine((value) => countryIds.has(value), { error: 'country must be a two-letter country code, such as US.' })
    .default('US')
    .describe('Residential only'),
  type: z
    .enum(['dynamic', 'static'], { error: 'type must be dynamic or static.' })
    .default('dynamic')
    .describe('Residential only'),
  count: z.coerce
    .number({ error: countMessage })
    .int({ error: countMessage })
    .min(GENERATOR_COUNT_MIN, { error: countMessage })
    .max(GENERATOR_COUNT_MAX, { error: countMessage })
    .default(GENERATOR_COUNT_DEFAULT)
    .describe('Residential only'),
  user: z
    .string()
    .regex(PROXY_USER_NAME_PATTERN, { error: proxyUserMessages.nameRule })
    .optional()
    .describe(
      "Residential only: a proxy user's name, for its lines (its username and password); absent: the main user",
    ),
});
export type ProxyListQuery = z.infer<typeof proxyListQuerySchema>;
